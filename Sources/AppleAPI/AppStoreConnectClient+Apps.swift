import Foundation

/// An app on App Store Connect (the `apps` resource's attributes Slipway reads).
public struct AppStoreConnectApp: Sendable, Hashable {
    /// The app's id (Apple ID), used in every path about it.
    public var id: String
    /// The bundle id.
    public var bundleID: String
    /// The name on the App Store.
    public var name: String
    /// The SKU.
    public var sku: String?

    /// Creates a value.
    public init(id: String, bundleID: String, name: String, sku: String? = nil) {
        self.id = id
        self.bundleID = bundleID
        self.name = name
        self.sku = sku
    }

    init(_ resource: JSONAPIResource) {
        self.init(id: resource.id, bundleID: resource.string("bundleId") ?? "", name: resource.string("name") ?? "",
                  sku: resource.string("sku"))
    }
}

extension AppStoreConnectClient {
    /// The roles that may read apps and builds.
    public static let readRoles = ["Admin", "App Manager", "Developer"]

    /// The apps whose bundle id is exactly `bundleID` (`GET /v1/apps?filter[bundleId]=`; Apple's
    /// filter also matches ids that merely start the same way, so the answer is filtered again).
    /// - Throws: `AppStoreConnectError`.
    public func apps(bundleID: String) async throws -> [AppStoreConnectApp] {
        let request = AppStoreConnectRequest(
            .get, "/v1/apps",
            query: [URLQueryItem(name: "filter[bundleId]", value: bundleID),
                    URLQueryItem(name: "fields[apps]", value: "name,bundleId,sku")],
            action: "look up the app with bundle id '\(bundleID)'", roles: Self.readRoles)
        return try await all(request).map(AppStoreConnectApp.init).filter { $0.bundleID == bundleID }
    }

    /// The one app with bundle id `bundleID`.
    /// - Throws: `AppStoreConnectError.appNotFound` naming it, or as `apps(bundleID:)`.
    public func app(bundleID: String) async throws -> AppStoreConnectApp {
        guard let app = try await apps(bundleID: bundleID).first else { throw AppStoreConnectError.appNotFound(bundleID: bundleID) }
        return app
    }

    /// The first page of the account's apps (`GET /v1/apps?limit=`): checks that the key works.
    /// - Throws: `AppStoreConnectError`.
    public func listApps(limit: Int = 10) async throws -> [AppStoreConnectApp] {
        let request = AppStoreConnectRequest(
            .get, "/v1/apps",
            query: [URLQueryItem(name: "fields[apps]", value: "name,bundleId,sku"), URLQueryItem(name: "limit", value: String(limit))],
            action: "list the apps", roles: Self.readRoles)
        return try await document(request).data.map(AppStoreConnectApp.init)
    }
}
