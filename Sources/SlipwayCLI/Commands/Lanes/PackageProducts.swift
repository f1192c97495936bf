import Basics
import Foundation

/// What `slipway init` found out about the Swift package it runs in: whether its release lane
/// should build an executable or publish a library, and a line saying how it decided.
struct PackageProducts: Equatable {
    /// Which release lane fits.
    enum Kind: Equatable {
        /// The package ships an executable: today's lane (build, archive, checksums, sign).
        case executable
        /// The package is a library: test, version, changelog, tag, push, GitHub release.
        case library
    }

    /// Which release lane fits.
    var kind: Kind
    /// What was found and how, e.g. "Package.swift declares only library products ('Core')
    /// (read with 'swift package dump-package')".
    var finding: String

    /// Reads the products of the package in `directory`: `swift package dump-package` first
    /// (it runs Package.swift, which is code: `init` is run by the user on their own project),
    /// then, when swift cannot answer, the text of Package.swift (`.executable(` and
    /// `.library(`). When neither tells, the executable lane is chosen and `finding` says so.
    static func detect(in directory: String, env: CommandEnvironment) async -> PackageProducts {
        let manifest = directory + "/Package.swift"
        guard env.fileSystem.exists(manifest) else {
            return PackageProducts(kind: .executable, finding: "no Package.swift in \(directory), so the release lane is the one for an executable "
                + "(use --template library for a library)")
        }
        let failure: String
        switch await dumpPackage(in: directory, env: env) {
        case .success(let products):
            let executables = products.filter { $0.type == "executable" }.map(\.name)
            let libraries = products.filter { $0.type == "library" }.map(\.name)
            let source = "(read with 'swift package dump-package')"
            if !executables.isEmpty {
                return PackageProducts(kind: .executable, finding: "Package.swift declares the executable product\(executables.count == 1 ? "" : "s") "
                    + "\(quoted(executables)) \(source): the release lane builds and archives it (--input product=\(executables[0]))")
            }
            if !libraries.isEmpty {
                return PackageProducts(kind: .library, finding: "Package.swift declares only library products (\(quoted(libraries))) \(source): "
                    + "the release lane tests, versions, tags and publishes a GitHub release, with no build or archive")
            }
            failure = "it lists no library or executable product"
        case .failure(let reason):
            failure = reason.text
        }
        let text = (try? env.fileSystem.readText(manifest, as: .versionFile)) ?? ""
        let source = "(read from Package.swift's text, because 'swift package dump-package' failed: \(failure))"
        if text.contains(".executable(") {
            return PackageProducts(kind: .executable, finding: "Package.swift declares an executable product \(source): "
                + "the release lane builds and archives it (--input product=NAME)")
        }
        if text.contains(".library(") {
            return PackageProducts(kind: .library, finding: "Package.swift declares only library products \(source): "
                + "the release lane tests, versions, tags and publishes a GitHub release, with no build or archive")
        }
        return PackageProducts(kind: .executable, finding: "could not tell the products of Package.swift: 'swift package dump-package' failed "
            + "(\(failure)) and its text has neither '.library(' nor '.executable('. The release lane is the one for an executable; "
            + "for a library, run 'slipway init --template library --force'")
    }

    /// A product's name and kind (`executable`, `library`, `plugin`, …).
    struct Product: Equatable {
        var name: String
        var type: String
    }

    /// The products `swift package dump-package` lists, or why it could not list them.
    private static func dumpPackage(in directory: String, env: CommandEnvironment) async -> Result<[Product], Reason> {
        let spec = ProcessSpec(executable: "swift", arguments: ["package", "dump-package"],
                               environment: env.environment.variables, workingDirectory: directory)
        let result: ProcessResult
        do {
            result = try await env.processRunner.run(spec)
        } catch {
            let reason = (error as? ProcessError)?.description ?? error.localizedDescription
            return .failure(Reason("swift could not be started: \(reason)"))
        }
        guard result.status.isSuccess else {
            let last = result.errorText.split(separator: "\n").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
            return .failure(Reason("it ended with \(result.status)" + (last.isEmpty ? "" : ": \(last)")))
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [String: Any],
              let products = object["products"] as? [[String: Any]] else {
            return .failure(Reason("its output is not a package description"))
        }
        return .success(products.compactMap { product in
            guard let name = product["name"] as? String, let type = product["type"] as? [String: Any], let kind = type.keys.sorted().first else { return nil }
            return Product(name: name, type: kind)
        })
    }

    /// Why `dump-package` gave no products, as a sentence fragment.
    struct Reason: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    private static func quoted(_ names: [String]) -> String { names.map { "'\($0)'" }.joined(separator: ", ") }
}
