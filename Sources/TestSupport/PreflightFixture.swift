import Crypto
import Foundation
import X509

/// A small app checkout for `slipway preflight` tests: an app and a widget extension whose
/// versions, build numbers and bundle ids agree, an Info.plist answering export compliance, an
/// app icon set with its 1024-pixel icon, a privacy manifest in the app's resources declaring
/// the user-defaults API its source uses, and an entitlements file asking for push. Every rule
/// passes on it; each test changes one thing.
public struct PreflightFixture: Sendable {
    public var appBundleID = "com.example.app"
    public var widgetBundleID = "com.example.app.widget"
    public var version = "1.4.0"
    public var widgetVersion = "1.4.0"
    public var build = "42"
    public var widgetBuild = "42"
    /// Extra Info.plist entries of the app (raw XML after the standard keys); nil drops the encryption key.
    public var encryptionKey: String? = "<key>ITSAppUsesNonExemptEncryption</key>\n\t<false/>"
    /// The app icon's pixel size and PNG colour type (2 = RGB, 6 = RGBA).
    public var iconSize = 1024
    public var iconColorType: UInt8 = 2
    /// The manifest's declared categories; nil: no manifest in the app's resources.
    public var declaredCategories: [String]? = ["NSPrivacyAccessedAPICategoryUserDefaults"]
    /// The app's Swift source.
    public var source = "import UIKit\n\nfinal class Settings {\n    let defaults = UserDefaults.standard\n}\n"
    /// The app's entitlements (XML entries).
    public var entitlements = "<key>aps-environment</key>\n\t<string>production</string>"

    public init() {}

    /// Writes the checkout into `folder`.
    public func write(in folder: String) throws {
        func put(_ relative: String, _ bytes: [UInt8]) throws {
            let full = folder + "/" + relative
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: full))
        }
        func plist(_ body: String) -> [UInt8] {
            Array("""
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t\(body)
                </dict>
                </plist>

                """.utf8)
        }
        let standard = """
            <key>CFBundleIdentifier</key>
            \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            \t<key>CFBundleShortVersionString</key>
            \t<string>$(MARKETING_VERSION)</string>
            \t<key>CFBundleVersion</key>
            \t<string>$(CURRENT_PROJECT_VERSION)</string>
            """
        try put("App/Info.plist", plist(standard + (encryptionKey.map { "\n\t" + $0 } ?? "")))
        try put("Widget/Info.plist", plist(standard))
        try put("App/App.entitlements", plist(entitlements))
        try put("App/Settings.swift", Array(source.utf8))
        try put("App/Assets.xcassets/AppIcon.appiconset/Contents.json", Array("""
            {
              "images" : [
                { "filename" : "icon.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" }
              ],
              "info" : { "author" : "xcode", "version" : 1 }
            }

            """.utf8))
        try put("App/Assets.xcassets/AppIcon.appiconset/icon.png", Self.pngHeader(width: iconSize, height: iconSize, colorType: iconColorType))
        if let declaredCategories {
            let entries = declaredCategories.map { category in
                "<dict>\n\t\t\t<key>NSPrivacyAccessedAPIType</key>\n\t\t\t<string>\(category)</string>\n\t\t\t<key>NSPrivacyAccessedAPITypeReasons</key>\n\t\t\t<array><string>CA92.1</string></array>\n\t\t</dict>"
            }.joined(separator: "\n\t\t")
            try put("App/PrivacyInfo.xcprivacy", plist("<key>NSPrivacyAccessedAPITypes</key>\n\t<array>\n\t\t\(entries)\n\t</array>"))
        }
        let app = VersionedXcodeProject.Target("App", settings: [
            ("PRODUCT_BUNDLE_IDENTIFIER", appBundleID), ("MARKETING_VERSION", version), ("CURRENT_PROJECT_VERSION", build),
            ("INFOPLIST_FILE", "App/Info.plist"), ("ASSETCATALOG_COMPILER_APPICON_NAME", "AppIcon"),
            ("CODE_SIGN_ENTITLEMENTS", "App/App.entitlements"),
        ])
        let widget = VersionedXcodeProject.Target("Widget", settings: [
            ("PRODUCT_BUNDLE_IDENTIFIER", widgetBundleID), ("MARKETING_VERSION", widgetVersion), ("CURRENT_PROJECT_VERSION", widgetBuild),
            ("INFOPLIST_FILE", "Widget/Info.plist"),
        ], productType: "com.apple.product-type.app-extension")
        var text = VersionedXcodeProject.pbxproj(targets: [app, widget])
        if declaredCategories != nil { text = Self.addingManifest(to: text) }
        try put("App.xcodeproj/project.pbxproj", Array(text.utf8))
    }

    /// The pbxproj with PrivacyInfo.xcprivacy in the first target's resources phase.
    static func addingManifest(to text: String) -> String {
        let reference = "C1000000000000000000000A", buildFile = "C1000000000000000000000B", phase = "C1000000000000000000000C"
        var result = text.replacingOccurrences(of: "/* Begin PBXFileReference section */\n", with: """
            /* Begin PBXBuildFile section */
            \t\t\(buildFile) /* PrivacyInfo.xcprivacy in Resources */ = {isa = PBXBuildFile; fileRef = \(reference) /* PrivacyInfo.xcprivacy */; };
            /* End PBXBuildFile section */

            /* Begin PBXFileReference section */
            \t\t\(reference) /* PrivacyInfo.xcprivacy */ = {isa = PBXFileReference; lastKnownFileType = text.xml; path = App/PrivacyInfo.xcprivacy; sourceTree = "<group>"; };

            """)
        result = result.replacingOccurrences(of: "\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n", with: "\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n\t\t\t\t\(reference) /* PrivacyInfo.xcprivacy */,\n")
        if let range = result.range(of: "\t\t\tbuildPhases = (\n\t\t\t);") {
            result.replaceSubrange(range, with: "\t\t\tbuildPhases = (\n\t\t\t\t\(phase) /* Resources */,\n\t\t\t);")
        }
        result = result.replacingOccurrences(of: "/* Begin PBXNativeTarget section */\n", with: """
            /* Begin PBXResourcesBuildPhase section */
            \t\t\(phase) /* Resources */ = {
            \t\t\tisa = PBXResourcesBuildPhase;
            \t\t\tbuildActionMask = 2147483647;
            \t\t\tfiles = (
            \t\t\t\t\(buildFile) /* PrivacyInfo.xcprivacy in Resources */,
            \t\t\t);
            \t\t\trunOnlyForDeploymentPostprocessing = 0;
            \t\t};
            /* End PBXResourcesBuildPhase section */

            /* Begin PBXNativeTarget section */

            """)
        return result
    }

    /// The first 33 bytes of a PNG (signature and IHDR) and IEND: what the icon rule reads.
    public static func pngHeader(width: Int, height: Int, colorType: UInt8) -> [UInt8] {
        func be(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height)
            + [8, colorType, 0, 0, 0] + [0, 0, 0, 0] + be(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    /// A distribution certificate (DER) valid until `notValidAfter`, for profiles.
    public static func distributionCertificate(_ authority: TestCertificateAuthority, notValidAfter: Date) throws -> [UInt8] {
        let key = P256.Signing.PrivateKey()
        let certificate = try authority.issue(publicKey: Certificate.PublicKey(key.publicKey), commonName: "Apple Distribution: Example Ltd (AB12CD34EF)",
                                              teamID: "AB12CD34EF", notValidBefore: notValidAfter.addingTimeInterval(-400 * 86_400), notValidAfter: notValidAfter)
        return try TestCertificateAuthority.der(certificate)
    }
}
