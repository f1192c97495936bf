import Foundation

extension AppStoreConnectContractFake {
    /// Build uploads (buildUploads, buildUploadFiles, upload parts, builds).
    static let buildUploadsSection = #"""
        # Build uploads: see AppStoreConnectContractFake+BuildUploads.swift (phase 2).
        """#
}
