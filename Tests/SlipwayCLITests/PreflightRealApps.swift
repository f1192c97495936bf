/// The four real apps of `PreflightRealVersionsTests`, what each run changes and what the App
/// Store Connect rules must say. docs/preflight.md ("Real apps") says why each finding is true.
enum PreflightRealApps {
    static let all = [ivpn, pocketCasts, simplenote, mastodon]

    /// A version bump as the team's tooling writes it: every `old` in `file` becomes `new`.
    static func edit(_ file: String, _ old: String, _ new: String) -> PreflightRealEdit { PreflightRealEdit(file: file, old: old, new: new) }

    /// ivpn: MARKETING_VERSION and CURRENT_PROJECT_VERSION in the target settings; the build
    /// number starts again with each version (2.13.0 shipped build 10, 2.13.1 build 3).
    static let ivpn: PreflightRealApp = {
        let project = "IVPNClient.xcodeproj/project.pbxproj"
        func release(_ version: String, _ build: String) -> [PreflightRealEdit] {
            [edit(project, "MARKETING_VERSION = 2.13.1;", "MARKETING_VERSION = \(version);"),
             edit(project, "CURRENT_PROJECT_VERSION = 3;", "CURRENT_PROJECT_VERSION = \(build);")]
        }
        return PreflightRealApp(
            folder: "ivpn", name: "IVPN", bundleID: "net.ivpn.clients.ios",
            offline: ["embedded-build-number", "embedded-version", "marketing-icon", "privacy-manifest", "project"],
            runs: [
                PreflightRealRun(name: "(a) the commit", expected: [
                    "error: IVPNClient.xcodeproj/project.pbxproj:3388: [build-number-above-uploaded] build number 3 is already used for version 2.13.1 of app {app} (1 build read)",
                    "error: IVPNClient.xcodeproj/project.pbxproj:3406: [version-train-open] version 2.13.1 was already approved on App Store Connect (READY_FOR_DISTRIBUTION, appStoreVersions/{v 2.13.1} of app {app}); its train is closed for new builds",
                ]),
                PreflightRealRun(name: "(b) the next release", edits: release("2.13.2", "4"), prepare: "2.13.2"),
                PreflightRealRun(name: "(c) the version not bumped after the release", edits: release("2.13.1", "4"), expected: [
                    "error: IVPNClient.xcodeproj/project.pbxproj:3406: [version-matches-prepared] version 2.13.1 is not the version App Store Connect prepares for app {app}: 2.13.2 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 2.13.2}); the build could not be chosen for it",
                    "error: IVPNClient.xcodeproj/project.pbxproj:3406: [version-train-open] version 2.13.1 was already approved on App Store Connect (READY_FOR_DISTRIBUTION, appStoreVersions/{v 2.13.1} of app {app}); its train is closed for new builds",
                ]),
                PreflightRealRun(name: "(c) a version below the last released", edits: release("2.12.6", "4"), expected: [
                    "error: IVPNClient.xcodeproj/project.pbxproj:3406: [version-above-released] version 2.12.6 is lower than 2.13.1, which App Store Connect made available (app {app}, IOS); the upload would be refused",
                    "error: IVPNClient.xcodeproj/project.pbxproj:3406: [version-matches-prepared] version 2.12.6 is not the version App Store Connect prepares for app {app}: 2.13.2 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 2.13.2}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) a version other than the one prepared", edits: release("2.14.0", "4"), expected: [
                    "error: IVPNClient.xcodeproj/project.pbxproj:3406: [version-matches-prepared] version 2.14.0 is not the version App Store Connect prepares for app {app}: 2.13.2 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 2.13.2}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) the build number already uploaded", edits: release("2.13.2", "4"), upload: ["2.13.2", "4"], expected: [
                    "error: IVPNClient.xcodeproj/project.pbxproj:3388: [build-number-above-uploaded] build number 4 is already used for version 2.13.2 of app {app} (1 build read)",
                ]),
            ])
    }()

    /// Pocket Casts: config/Version.xcconfig's VERSION_SHORT (the version) and VERSION_LONG (the
    /// build number, four parts: 7.75.0.3 is 7.75's fourth beta build).
    static let pocketCasts: PreflightRealApp = {
        func release(_ version: String, _ build: String) -> [PreflightRealEdit] {
            [edit("config/Version.xcconfig", "VERSION_LONG = 7.75.0.3", "VERSION_LONG = \(build)"),
             edit("config/Version.xcconfig", "VERSION_SHORT = 7.75", "VERSION_SHORT = \(version)")]
        }
        return PreflightRealApp(
            folder: "pocket-casts", name: "Pocket Casts", bundleID: "au.com.shiftyjelly.podcasts",
            offline: ["build-number-format", "marketing-icon", "privacy-manifest", "project"],
            runs: [
                PreflightRealRun(name: "(a) the commit", expected: [
                    "error: config/Version.xcconfig:1: [build-number-above-uploaded] build number 7.75.0.3 is already used for version 7.75 of app {app} (4 builds read)",
                ]),
                PreflightRealRun(name: "(b) the next beta", edits: release("7.75", "7.75.0.4")),
                PreflightRealRun(name: "(b) the next release", edits: release("7.76", "7.76.0.0"), prepare: "7.76"),
                PreflightRealRun(name: "(c) a hotfix that keeps the released version", edits: release("7.74.1", "7.74.1.1"), expected: [
                    "error: config/Version.xcconfig:2: [version-matches-prepared] version 7.74.1 is not the version App Store Connect prepares for app {app}: 7.76 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 7.76}); the build could not be chosen for it",
                    "error: config/Version.xcconfig:2: [version-train-open] version 7.74.1 was already approved on App Store Connect (READY_FOR_DISTRIBUTION, appStoreVersions/{v 7.74.1} of app {app}); its train is closed for new builds",
                ]),
                PreflightRealRun(name: "(c) a version below the last released", edits: release("7.73.1", "7.73.1.0"), expected: [
                    "error: config/Version.xcconfig:2: [version-above-released] version 7.73.1 is lower than 7.74.1, which App Store Connect made available (app {app}, IOS); the upload would be refused",
                    "error: config/Version.xcconfig:2: [version-matches-prepared] version 7.73.1 is not the version App Store Connect prepares for app {app}: 7.76 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 7.76}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) a version other than the one prepared", edits: release("7.77", "7.77.0.0"), expected: [
                    "error: config/Version.xcconfig:2: [version-matches-prepared] version 7.77 is not the version App Store Connect prepares for app {app}: 7.76 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 7.76}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) the build number already uploaded", edits: release("7.76", "7.76.0.0"), upload: ["7.76", "7.76.0.0"], expected: [
                    "error: config/Version.xcconfig:1: [build-number-above-uploaded] build number 7.76.0.0 is already used for version 7.76 of app {app} (1 build read)",
                ]),
            ])
    }()

    /// Simplenote: config/Version.Public.xcconfig's VERSION_SHORT and VERSION_LONG, read in the
    /// "Distribution AppStore" configuration its App Store lane archives. Its xcconfigs include
    /// "Version.public.xcconfig", which preflight finds ignoring case, as Xcode does on the Mac's
    /// case-insensitive disk (docs/preflight.md).
    static let simplenote: PreflightRealApp = {
        func release(_ version: String, _ build: String) -> [PreflightRealEdit] {
            [edit("config/Version.Public.xcconfig", "VERSION_LONG = 4.54.0.1", "VERSION_LONG = \(build)"),
             edit("config/Version.Public.xcconfig", "VERSION_SHORT = 4.54", "VERSION_SHORT = \(version)")]
        }
        return PreflightRealApp(
            folder: "simplenote", name: "Simplenote", bundleID: "com.codality.NotationalFlow",
            arguments: ["--configuration", "Distribution AppStore"],
            offline: ["build-number-format", "marketing-icon", "privacy-manifest", "project"],
            runs: [
                PreflightRealRun(name: "(a) the commit"),
                PreflightRealRun(name: "(b) the next release", edits: release("4.55", "4.55.0.0"), prepare: "4.55"),
                PreflightRealRun(name: "(c) a release of a released version", edits: release("4.53", "4.53.0.2"), expected: [
                    "error: config/Version.Public.xcconfig:2: [version-matches-prepared] version 4.53 is not the version App Store Connect prepares for app {app}: 4.55 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 4.55}); the build could not be chosen for it",
                    "error: config/Version.Public.xcconfig:2: [version-train-open] version 4.53 was already approved on App Store Connect (READY_FOR_DISTRIBUTION, appStoreVersions/{v 4.53} of app {app}); its train is closed for new builds",
                ]),
                PreflightRealRun(name: "(c) a version below the last released", edits: release("4.52.1", "4.52.1.0"), expected: [
                    "error: config/Version.Public.xcconfig:2: [version-above-released] version 4.52.1 is lower than 4.53, which App Store Connect made available (app {app}, IOS); the upload would be refused",
                    "error: config/Version.Public.xcconfig:2: [version-matches-prepared] version 4.52.1 is not the version App Store Connect prepares for app {app}: 4.55 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 4.55}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) a version other than the one prepared", edits: release("4.56", "4.56.0.0"), expected: [
                    "error: config/Version.Public.xcconfig:2: [version-matches-prepared] version 4.56 is not the version App Store Connect prepares for app {app}: 4.55 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 4.55}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) the build number already uploaded", edits: release("4.55", "4.55.0.0"), upload: ["4.55", "4.55.0.0"], expected: [
                    "error: config/Version.Public.xcconfig:1: [build-number-above-uploaded] build number 4.55.0.0 is already used for version 4.55 of app {app} (1 build read)",
                ]),
            ])
    }()

    /// Mastodon: AppVersion.xcconfig's MARKETING_VERSION; the build number is the commit count
    /// (`git rev-list --count HEAD`, 6837 at the commit), which its App Store lane writes into
    /// every CURRENT_PROJECT_VERSION (fastlane's `increment_build_number_in_xcodeproj`) just before
    /// the archive, over the committed values (the project level's 1, which the app and its
    /// extensions inherit, and the test targets' 5889).
    static let mastodon: PreflightRealApp = {
        func release(_ version: String, _ build: String) -> [PreflightRealEdit] {
            [edit("AppVersion.xcconfig", "MARKETING_VERSION = 2024.11", "MARKETING_VERSION = \(version)"),
             edit("Mastodon.xcodeproj/project.pbxproj", "CURRENT_PROJECT_VERSION = 1;", "CURRENT_PROJECT_VERSION = \(build);"),
             edit("Mastodon.xcodeproj/project.pbxproj", "CURRENT_PROJECT_VERSION = 5889;", "CURRENT_PROJECT_VERSION = \(build);")]
        }
        return PreflightRealApp(
            folder: "mastodon", name: "Mastodon", bundleID: "org.joinmastodon.app",
            offline: ["marketing-icon", "privacy-manifest", "project"],
            runs: [
                PreflightRealRun(name: "(a) the commit", expected: [
                    "error: Mastodon.xcodeproj/project.pbxproj:4525: [build-number-above-uploaded] build number 1 is lower than 6837, the highest uploaded for version 2024.11 of app {app} (1 build read)",
                ]),
                PreflightRealRun(name: "(a) the commit, built as its lane builds it", edits: release("2024.11", "6837"), expected: [
                    "error: Mastodon.xcodeproj/project.pbxproj:4525: [build-number-above-uploaded] build number 6837 is already used for version 2024.11 of app {app} (1 build read)",
                ]),
                PreflightRealRun(name: "(b) the next release", edits: release("2024.12", "6838"), prepare: "2024.12"),
                PreflightRealRun(name: "(c) the version not bumped after the release", edits: release("2024.10", "6838"), expected: [
                    "error: AppVersion.xcconfig:1: [version-matches-prepared] version 2024.10 is not the version App Store Connect prepares for app {app}: 2024.12 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 2024.12}); the build could not be chosen for it",
                    "error: AppVersion.xcconfig:1: [version-train-open] version 2024.10 was already approved on App Store Connect (READY_FOR_DISTRIBUTION, appStoreVersions/{v 2024.10} of app {app}); its train is closed for new builds",
                ]),
                PreflightRealRun(name: "(c) a version below the last released", edits: release("2024.9.1", "6838"), expected: [
                    "error: AppVersion.xcconfig:1: [version-above-released] version 2024.9.1 is lower than 2024.10, which App Store Connect made available (app {app}, IOS); the upload would be refused",
                    "error: AppVersion.xcconfig:1: [version-matches-prepared] version 2024.9.1 is not the version App Store Connect prepares for app {app}: 2024.12 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 2024.12}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) a version other than the one prepared", edits: release("2025.1", "6838"), expected: [
                    "error: AppVersion.xcconfig:1: [version-matches-prepared] version 2025.1 is not the version App Store Connect prepares for app {app}: 2024.12 (PREPARE_FOR_SUBMISSION, appStoreVersions/{v 2024.12}); the build could not be chosen for it",
                ]),
                PreflightRealRun(name: "(c) the build number already uploaded", edits: release("2024.12", "6838"), upload: ["2024.12", "6838"], expected: [
                    "error: Mastodon.xcodeproj/project.pbxproj:4525: [build-number-above-uploaded] build number 6838 is already used for version 2024.12 of app {app} (1 build read)",
                ]),
            ])
    }()
}
