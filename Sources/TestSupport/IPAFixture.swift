import Foundation

/// Archive-shaped `.ipa` files for tests: `Payload/NAME.app/Info.plist` (XML or binary, written by
/// Python's plistlib), an executable of `payloadBytes` pseudo-random bytes (stored, so the file
/// is about that large), zipped by Python's zipfile.
public enum IPAFixture {
    /// Writes an .ipa at `path`; `plist: nil` leaves Info.plist out.
    public static func make(at path: String, bundleID: String = "com.example.app", version: String = "1.2.0",
                            build: String = "42", payloadBytes: Int = 300_000, binaryPlist: Bool = false,
                            plist: Bool = true) throws {
        let script = """
            import os, plistlib, random, sys, zipfile
            path, bundle, version, build, size, binary, plist = sys.argv[1:8]
            info = {"CFBundleIdentifier": bundle, "CFBundleShortVersionString": version, "CFBundleVersion": build,
                    "CFBundleSupportedPlatforms": ["iPhoneOS"], "CFBundleExecutable": "Example"}
            data = plistlib.dumps(info, fmt=plistlib.FMT_BINARY if binary == "1" else plistlib.FMT_XML)
            rng = random.Random(int(build) if build.isdigit() else 7)
            with zipfile.ZipFile(path, "w") as z:
                if plist == "1":
                    z.writestr("Payload/Example.app/Info.plist", data, zipfile.ZIP_DEFLATED)
                z.writestr("Payload/Example.app/Example", bytes(rng.getrandbits(8) for _ in range(int(size))), zipfile.ZIP_STORED)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, bundleID, version, build, String(payloadBytes),
                             binaryPlist ? "1" : "0", plist ? "1" : "0"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonScriptServer.StartError(description: "could not write the .ipa fixture \(path)")
        }
    }

    /// The entries of the .ipa (zip) at `path`, as `unzip -Z1` lists them.
    public static func entries(of path: String) throws -> [String] {
        let listed = try CommandResult.run("/usr/bin/env", ["unzip", "-Z1", path])
        guard listed.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        return listed.standardOutput.split(separator: "\n").map(String.init)
    }

    /// The app's Info.plist inside the .ipa at `path` (`Payload/NAME.app/Info.plist`), read back
    /// with `unzip` and Foundation.
    public static func infoPlist(of path: String) throws -> [String: Any] {
        guard let entry = try entries(of: path).first(where: { $0.hasPrefix("Payload/") && $0.hasSuffix(".app/Info.plist") }) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
        }
        let plist = try CommandResult.run("/usr/bin/env", ["unzip", "-p", path, entry])
        guard plist.status == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        return try PropertyListSerialization.propertyList(from: Data(plist.standardOutput.utf8), format: nil) as? [String: Any] ?? [:]
    }
}
