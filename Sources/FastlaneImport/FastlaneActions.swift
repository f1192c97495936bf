import Basics
import Xcode

extension LaneBuilder {
    /// An action that has no translator in FastlaneActionRegistry: listed.
    mutating func translateUnmigratedAction(_ call: RubyCall, _ statement: Fastfile.Statement) -> Bool {
        skip(statement, "Slipway has no step for '\(call.name)'; use a 'run' step or a plugin step")
        return false
    }
}

extension [String: DraftValue] {
    /// Pairs in key order.
    var pairs: [DraftPair] { sorted { $0.key < $1.key }.map { DraftPair($0.key, $0.value) } }
}

extension String {
    /// fastlane's gym export methods in Xcode 15.3's names.
    init(fastlaneExportMethod name: String) {
        switch name {
        case "app-store", "app_store", "appstore": self = "app-store-connect"
        case "ad-hoc", "adhoc", "ad_hoc": self = "release-testing"
        case "development": self = "debugging"
        default: self = name
        }
    }
}
