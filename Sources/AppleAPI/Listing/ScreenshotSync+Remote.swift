import Basics
import Foundation

/// An `appScreenshotSets` resource with its screenshots, in Apple's order.
struct RemoteScreenshotSet: Sendable {
    var id: String
    var displayType: String
    var screenshots: [RemoteScreenshot]
}

/// An `appScreenshots` resource as the sync reads it.
struct RemoteScreenshot: Sendable {
    var id: String
    var fileName: String
    var fileSize: Int64
    var checksum: String?
    /// `assetDeliveryState.state`: AWAITING_UPLOAD, UPLOAD_COMPLETE, COMPLETE or FAILED.
    var state: String
    /// Apple's errors for a FAILED asset ("IMAGE_INCORRECT_DIMENSIONS: …").
    var errors: [String]
    var templateURL: String?
    var width: Int
    var height: Int
    var operations: [BuildUploadOperation]

    init(_ resource: JSONAPIResource) {
        id = resource.id
        fileName = resource.string("fileName") ?? ""
        fileSize = resource.attributes["fileSize"]?.int ?? 0
        checksum = resource.string("sourceFileChecksum")?.lowercased()
        let delivery = resource.attributes["assetDeliveryState"]
        state = delivery?["state"]?.string ?? "AWAITING_UPLOAD"
        errors = (delivery?["errors"]?.array ?? []).map { item in
            [item["code"]?.string, item["description"]?.string].compactMap { $0 }.joined(separator: ": ")
        }
        let asset = resource.attributes["imageAsset"]
        templateURL = asset?["templateUrl"]?.string
        width = Int(asset?["width"]?.int ?? 0)
        height = Int(asset?["height"]?.int ?? 0)
        operations = (resource.attributes["uploadOperations"]?.array ?? []).compactMap(BuildUploadOperation.init)
    }

    /// Uploaded and committed (processing or done): a screenshot the store has or will have.
    var isDelivered: Bool { state == "COMPLETE" || state == "UPLOAD_COMPLETE" }
}

extension ScreenshotSync {
    /// The localization's screenshot sets, each with its screenshots in order.
    func remoteSets(localizationID: String, locale: String) async throws -> [RemoteScreenshotSet] {
        let sets = try await client.all(AppStoreConnectRequest(
            .get, "/v1/appStoreVersionLocalizations/\(localizationID)/appScreenshotSets",
            query: [URLQueryItem(name: "limit", value: "50")],
            action: "list the \(locale) screenshot sets", roles: Self.roles))
        var result: [RemoteScreenshotSet] = []
        for set in sets {
            guard let type = set.string("screenshotDisplayType") else {
                throw ScreenshotError.unexpectedAnswer(step: "GET /v1/appStoreVersionLocalizations/\(localizationID)/appScreenshotSets",
                                                       problem: "set \(set.id) has no screenshotDisplayType")
            }
            result.append(RemoteScreenshotSet(id: set.id, displayType: type,
                                              screenshots: try await screenshots(ofSet: set.id, label: "\(locale) \(type)")))
        }
        return result
    }

    /// A set's screenshots, in the set's order.
    func screenshots(ofSet setID: String, label: String) async throws -> [RemoteScreenshot] {
        try await client.all(AppStoreConnectRequest(
            .get, "/v1/appScreenshotSets/\(setID)/appScreenshots", query: [URLQueryItem(name: "limit", value: "50")],
            action: "list the \(label) screenshots", roles: Self.roles)).map(RemoteScreenshot.init)
    }

    /// Reserves the set for the plan's localization and display type; returns its id. Not
    /// retried blindly: a second set of the same type would be refused, and the next run finds the first.
    func createSet(_ plan: SetPlan) async throws -> String {
        let body = JSONAPI.document(
            type: "appScreenshotSets", attributes: ["screenshotDisplayType": .string(plan.displayType)],
            relationships: ["appStoreVersionLocalization": JSONAPIIdentifier(type: "appStoreVersionLocalizations", id: plan.localizationID).json])
        let made = try await client.document(AppStoreConnectRequest(
            .post, "/v1/appScreenshotSets", body: body, action: "create the \(plan.locale) \(plan.displayType) screenshot set",
            roles: Self.roles, retry: .never))
        guard let id = made.first?.id else {
            throw ScreenshotError.unexpectedAnswer(step: "POST /v1/appScreenshotSets", problem: "no data")
        }
        return id
    }

    /// Deletes a screenshot; one already gone (404 after a retried DELETE) counts as deleted.
    func deleteScreenshot(_ screenshot: RemoteScreenshot) async throws {
        do {
            _ = try await client.send(AppStoreConnectRequest(
                .delete, "/v1/appScreenshots/\(screenshot.id)", action: "delete the screenshot '\(screenshot.fileName)' (\(screenshot.id))",
                roles: Self.roles, retry: .blindly))
        } catch let error as AppStoreConnectError where error.status == 404 {
            return
        }
    }
}
