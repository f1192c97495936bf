import Basics
import Foundation

/// Shared by the translators that need the version being released.
extension LaneBuilder {
    /// The version being released: the version step's output, else an input.
    mutating func versionExpression(_ statement: Fastfile.Statement) -> String {
        if draft.step("version") != nil { return "${{ steps.version.outputs.version }}" }
        draft.requireInput("version", "The version being released")
        return "${{ inputs.version }}"
    }

}

extension DraftValue {
    /// Numbers as text (build numbers and versions are strings in lanes).
    var asString: DraftValue {
        if case .int(let number) = self { return .string(String(number)) }
        return self
    }
}

