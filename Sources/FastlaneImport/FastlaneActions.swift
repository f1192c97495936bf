import Basics
import Xcode

extension LaneBuilder {
    /// An action that has no translator in FastlaneActionRegistry: listed.
    mutating func listActionWithoutStep(_ call: RubyCall, _ statement: Fastfile.Statement) -> Bool {
        skip(statement, "Slipway has no step for '\(call.name)'; use a 'run' step or a plugin step")
        return false
    }
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
