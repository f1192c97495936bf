import Basics
import Foundation

/// Uploads release assets to GitHub. The release for the tag is reused when it exists (drafts
/// included) and created otherwise. An asset with the same name and size is skipped unless
/// `replace` is set (then deleted and uploaded again); one with the same name and another size
/// is an error unless `replace` is set. An asset left half-uploaded by an earlier failure
/// (state `starter`) is deleted first. Conflicts are found before the first byte is sent.
public struct GitHubReleaseUploader: Uploader {
    private let client: GitHubReleaseClient
    private let release: GitHubReleaseDraft
    private let replace: Bool

    /// An uploader to the release `release.tag`.
    public init(client: GitHubReleaseClient, release: GitHubReleaseDraft, replace: Bool) {
        self.client = client
        self.release = release
        self.replace = replace
    }

    public func destination(of file: UploadFile) -> String {
        "release '\(release.tag)' of \(client.repository), asset '\(file.name)'"
    }

    /// - Throws: `PublishError.destinationDiffers` (before anything is sent), `.refused`,
    ///   `.failedAfterRetries`, `.unexpectedResponse`.
    public func upload(_ files: [UploadFile], progress: UploadProgressHandler?) async throws -> [UploadOutcome] {
        let existingRelease = try await client.release(tag: release.tag)
        var assets: [GitHubAsset] = []
        if let existingRelease { assets = try await client.assets(releaseID: existingRelease.id) }
        var plan: [(file: UploadFile, action: UploadAction, existing: GitHubAsset?)] = []
        for file in files {
            guard let asset = assets.first(where: { $0.name == file.name }) else {
                plan.append((file, .uploaded, nil))
                continue
            }
            if asset.state == "starter" {
                plan.append((file, .uploaded, asset))
            } else if replace {
                plan.append((file, .replaced, asset))
            } else if asset.size == file.size {
                plan.append((file, .skipped, asset))
            } else {
                throw PublishError.destinationDiffers(path: destination(of: file), option: "replace")
            }
        }
        let target: GitHubRelease
        if let existingRelease { target = existingRelease } else { target = try await client.createRelease(release) }
        var outcomes: [UploadOutcome] = []
        for entry in plan {
            if entry.action == .skipped {
                outcomes.append(UploadOutcome(file: entry.file, url: entry.existing?.browserDownloadUrl ?? "", action: .skipped))
                continue
            }
            if let old = entry.existing { try await client.deleteAsset(id: old.id, name: old.name) }
            let asset = try await send(entry.file, releaseID: target.id, progress: progress)
            outcomes.append(UploadOutcome(file: entry.file, url: asset.browserDownloadUrl ?? "", action: entry.action))
        }
        return outcomes
    }

    /// Uploads one asset. When the upload fails with 422 (the name exists) the earlier attempt
    /// got through far enough to leave a partial asset: it is deleted and the upload repeated once.
    private func send(_ file: UploadFile, releaseID: Int, progress: UploadProgressHandler?) async throws -> GitHubAsset {
        let report = progress.forFile(file)
        do {
            return try await client.uploadAsset(releaseID: releaseID, file: file.path, name: file.name, progress: report)
        } catch PublishError.refused(_, 422, let body) where body.contains("already_exists") {
            if let leftover = try await client.assets(releaseID: releaseID).first(where: { $0.name == file.name }) {
                try await client.deleteAsset(id: leftover.id, name: leftover.name)
            }
            return try await client.uploadAsset(releaseID: releaseID, file: file.path, name: file.name, progress: report)
        }
    }
}
