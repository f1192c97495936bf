import Foundation

/// The text shown to users for an error: a `LocalizedError`'s description, else the error's own
/// description (never Foundation's generic "The operation could not be completed").
public func errorText(_ error: any Error) -> String {
    if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
    return String(describing: error)
}
