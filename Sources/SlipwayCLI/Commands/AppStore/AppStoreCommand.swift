import AppleAPI
import ArgumentParser
import Basics
import Foundation
import Networking
import Publish

/// `slipway appstore`: App Store Connect.
struct AppStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstore",
        abstract: "Work with App Store Connect.",
        subcommands: [AppStoreCheckCommand.self, AppStoreMetadataCommand.self]
    )
}

/// `slipway appstore check`: checks an API key offline, then with one request.
struct AppStoreCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check an App Store Connect API key: offline (a P-256 .p8, ids well-formed), then one GET.",
        discussion: """
            The key is read from a file (--key-file) or from an environment variable holding the \
            .p8 text (--key-env), never from an argument. With --bundle-id the key must be able to \
            see that app; otherwise it must be able to list apps. A 403 answer names the role the \
            key lacks. Nothing is changed on App Store Connect.

            Examples:
              slipway appstore check --issuer-id 57246542-96fe-1a63-e053-0824d011072a --key-id ABC123DEFG --key-file AuthKey_ABC123DEFG.p8
              ASC_KEY="$(cat AuthKey.p8)" slipway appstore check --key-id ABC123DEFG --individual --key-env ASC_KEY --bundle-id com.example.app --json
            """
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var keyOptions: AppStoreKeyOptions

    @Option(help: ArgumentHelp("Check that the key can see the app with this bundle id.", valueName: "id"))
    var bundleId: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        try keyOptions.check(required: true)
    }

    func run() async throws {
        let env = global.environment()
        let session = try keyOptions.openOrReport(env)
        let report = try await session.run(env) { try await check(client: $0, key: session.key) }
        env.print(json ? report.json : report.text)
    }

    private func check(client: AppStoreConnectClient, key: AppStoreConnectKey) async throws -> CheckReport {
        _ = try await client.tokens.token()
        if let bundleId {
            let app = try await client.app(bundleID: bundleId)
            return CheckReport(key: key, apps: [app], bundleID: bundleId)
        }
        return CheckReport(key: key, apps: try await client.listApps(limit: 10), bundleID: nil)
    }
}

/// What `appstore check` found.
private struct CheckReport {
    let key: AppStoreConnectKey
    let apps: [AppStoreConnectApp]
    let bundleID: String?

    var kind: String { key.issuerID == nil ? "individual" : "team" }

    var text: String {
        let issuer = key.issuerID.map { ", issuer \($0)" } ?? ""
        var lines = ["key \(key.keyID) (\(kind) key\(issuer)): a P-256 private key; App Store Connect accepted its token"]
        if bundleID != nil, let app = apps.first {
            lines.append("the key can see '\(app.name.displaySafe)' (\(app.bundleID.displaySafe), app id \(app.id.displaySafe))")
        } else {
            lines.append("the key can see \(apps.count == 10 ? "10 or more" : String(apps.count)) app\(apps.count == 1 ? "" : "s")"
                + (apps.isEmpty ? "" : ": " + apps.map { "\($0.name.displaySafe) (\($0.bundleID.displaySafe))" }.joined(separator: ", ")))
        }
        return lines.joined(separator: "\n")
    }

    var json: String {
        let apps: [[String: Any]] = self.apps.map { ["id": $0.id, "bundleId": $0.bundleID, "name": $0.name] }
        var object: [String: Any] = ["keyId": key.keyID, "kind": kind, "apps": apps, "ok": true]
        if let issuer = key.issuerID { object["issuerId"] = issuer }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
