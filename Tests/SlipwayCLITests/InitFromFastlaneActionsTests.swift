import Foundation
import Testing
import TestSupport
import TestThreads

/// Issue 40, points 2 and 5: the actions Slipway covers are translated to their steps through the
/// binary (deploygate, upload_to_app_store and its aliases, slack, synx, cocoapods), pem is listed
/// with the commands that replace it, and each written lane validates.
@Suite(.dedicatedThreads) struct InitFromFastlaneActionsTests {
    func slipway(_ arguments: [String], in directory: String) throws -> CommandResult {
        try CommandResult.run(Binaries.slipway, arguments, in: directory, environment: ["NO_COLOR": "1"])
    }

    /// App.xcodeproj (an app and a widget, bundle id com.example.app), its shared scheme and
    /// `fastfile` in fastlane/.
    func project(_ fastfile: String, files: [String: String] = [:]) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "slipway-init-actions")
        try folder.write("App.xcodeproj/project.pbxproj", InitFromFastlaneTests.pbxproj)
        try folder.write("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", InitFromFastlaneTests.scheme)
        try folder.write("fastlane/Fastfile", fastfile)
        for (path, text) in files { try folder.write(path, text) }
        return folder
    }

    /// Runs init, checks that it wrote `lane` and nothing else changed, and returns its output and
    /// the lane file's text.
    func translate(_ folder: TemporaryDirectory, lane: String) throws -> (output: String, lane: String) {
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        var after = try Snapshot.of(folder.path)
        after.removeValue(forKey: "lanes")
        after.removeValue(forKey: "lanes/\(lane).yml")
        #expect(after == before)
        let text = try String(contentsOfFile: folder.path + "/lanes/\(lane).yml", encoding: .utf8)
        return (result.standardOutput, text)
    }

    func validate(_ lane: String, in folder: TemporaryDirectory) throws -> CommandResult {
        try slipway(["validate", lane, "--platform", "macos"], in: folder.path)
    }

    // MARK: - deploygate

    /// fastlane's first documented example, with the API key from the environment.
    @Test func deploygateIsAnUploadToDeployGate() throws {
        let folder = try project("""
            lane :beta do
              gym(export_method: "ad-hoc")
              deploygate(
                api_token: ENV["DEPLOYGATE_TOKEN"],
                user: "example-team",
                message: "Build #{lane_context[SharedValues::BUILD_NUMBER]}",
                distribution_key: "0a1b2c",
                distribution_name: "QA",
                disable_notify: true
              )
            end
            """)
        let (output, lane) = try translate(folder, lane: "beta")
        #expect(lane.contains("""
              # fastlane/Fastfile:3 deploygate( …
              - upload:
                  to: deploygate
                  files: ["${{ steps.export.outputs.path }}"]
                  owner: example-team
                  token: "${{ secrets.DEPLOYGATE_TOKEN }}"
                  distribution-key: 0a1b2c
                  disable-notify: true
                  distribution-name: QA
                id: deploygate
            """), "\(lane)")
        #expect(lane.contains("secrets:\n  DEPLOYGATE_TOKEN:\n    description: The DeployGate API key\n"))
        #expect(output.contains("""
              not translated: fastlane/Fastfile:3 deploygate(message: …) — its value ("Build #{lane_context[SharedValues::BUILD_NUMBER]}") is only known when Ruby runs
            """), "\(output)")
        #expect(output.hasSuffix("1 lane written, 1 item not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"), "\(output)")
        let validated = try validate("beta", in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    /// Without arguments: fastlane's defaults (DEPLOYGATE_API_TOKEN, DEPLOYGATE_USER, the message).
    /// A key written in the Fastfile is not copied into the lane.
    @Test func deploygateDefaultsAndAKeyInTheFastfile() throws {
        let folder = try project("""
            lane :beta do
              deploygate(api_token: "0123456789abcdef", apk: "app/build/app.apk", release_note: "QA build")
            end
            """)
        let (output, lane) = try translate(folder, lane: "beta")
        #expect(lane.contains("""
              # fastlane/Fastfile:2 deploygate(api_token: "…", apk: "app/build/app.apk", release_note: "QA build")
              - upload:
                  to: deploygate
                  files: [app/build/app.apk]
                  owner: "${{ env.DEPLOYGATE_USER }}"
                  token: "${{ secrets.DEPLOYGATE_API_TOKEN }}"
                  message: No changelog provided
                  release-note: QA build
                id: deploygate
            """), "\(lane)")
        #expect(!lane.contains("0123456789abcdef") && !output.contains("0123456789abcdef"))
        #expect(output.contains("  differs:        deploygate's api_token is written in the Fastfile: the lane takes it from the secret DEPLOYGATE_API_TOKEN instead; set that secret, and revoke the one in the Fastfile (it stays in the repository's history)\n"), "\(output)")
        #expect(output.hasSuffix("1 lane written, 0 items not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"), "\(output)")
        let validated = try validate("beta", in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    // MARK: - upload_to_app_store, deliver, appstore

    /// fastlane's default: the metadata, the screenshots and gym's binary; a submission when asked.
    @Test func uploadToAppStoreSendsTheBinaryTheListingAndSubmits() throws {
        let folder = try project("""
            lane :release do
              gym(export_method: "app-store")
              upload_to_app_store(
                force: true,
                submit_for_review: true,
                automatic_release: true,
                languages: ["en-US", "de-DE"],
                submission_information: { add_id_info_uses_idfa: false }
              )
            end
            """, files: ["fastlane/Appfile": "app_identifier 'com.example.app'\n"])
        let (output, lane) = try translate(folder, lane: "release")
        #expect(lane.contains("""
              # fastlane/Fastfile:3 upload_to_app_store( …
              - appstore.upload:
                  key-id: "${{ secrets.ASC_KEY_ID }}"
                  issuer-id: "${{ secrets.ASC_ISSUER_ID }}"
                  key: "${{ secrets.ASC_KEY }}"
                  ipa: "${{ steps.export.outputs.path }}"
                id: upload
              # fastlane/Fastfile:3 upload_to_app_store( …
              - appstore.metadata:
                  key-id: "${{ secrets.ASC_KEY_ID }}"
                  issuer-id: "${{ secrets.ASC_ISSUER_ID }}"
                  key: "${{ secrets.ASC_KEY }}"
                  bundle-id: com.example.app
                  metadata-path: fastlane/metadata
                  version: "${{ steps.upload.outputs.version }}"
                  create-version: true
                  locales: [en-US, de-DE]
                  screenshots-path: fastlane/screenshots
                id: metadata
              # fastlane/Fastfile:3 upload_to_app_store( …
              - appstore.submit:
                  key-id: "${{ secrets.ASC_KEY_ID }}"
                  issuer-id: "${{ secrets.ASC_ISSUER_ID }}"
                  key: "${{ secrets.ASC_KEY }}"
                  bundle-id: com.example.app
                  version: "${{ steps.upload.outputs.version }}"
                  build-id: "${{ steps.upload.outputs.build-id }}"
                  release-type: AFTER_APPROVAL
                  phased-release: false
                id: submit
            """), "\(lane)")
        #expect(output.contains("lane 'release' → lanes/release.yml, 6 steps from 2 actions\n"), "\(output)")
        #expect(output.contains("  not translated: fastlane/Fastfile:3 upload_to_app_store(submission_information: …) — appstore.submit has no submission information: declare encryption with ITSAppUsesNonExemptEncryption in Info.plist, and content rights and the advertising identifier in App Store Connect\n"), "\(output)")
        #expect(output.contains("  differs:        deliver runs precheck before submitting; the lane runs appstore.preflight first instead, which checks what App Store Connect refuses (limits, versions, build numbers, signing), not precheck's wording rules\n"), "\(output)")
        #expect(output.contains("  differs:        deliver sends the listing, then the binary; the lane uploads the binary first, so that appstore.metadata edits the version of that build (deliver reads it from the .ipa)\n"), "\(output)")
        #expect(output.hasSuffix("1 lane written, 1 item not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"), "\(output)")
        let validated = try validate("release", in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    /// `deliver` for the listing only: no upload, no submission, its own folder; and `appstore`
    /// with nothing to upload says so instead of uploading a guessed file.
    @Test func deliverForTheListingAndAppstoreWithoutABinary() throws {
        let folder = try project("""
            lane :metadata do
              deliver(skip_binary_upload: true, skip_screenshots: true, metadata_path: "./metadata", app_version: "2.1", platform: "osx")
            end

            lane :listing do
              appstore(skip_metadata: true, skip_screenshots: true)
              appstore
            end
            """, files: ["fastlane/Appfile": "app_identifier 'com.example.app'\n"])
        let before = try Snapshot.of(folder.path)
        let result = try slipway(["init", "--from-fastlane"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        let metadata = try String(contentsOfFile: folder.path + "/lanes/metadata.yml", encoding: .utf8)
        #expect(metadata.contains("""
              - appstore.metadata:
                  key-id: "${{ secrets.ASC_KEY_ID }}"
                  issuer-id: "${{ secrets.ASC_ISSUER_ID }}"
                  key: "${{ secrets.ASC_KEY }}"
                  bundle-id: com.example.app
                  metadata-path: ./metadata
                  platform: MAC_OS
                  version: "2.1"
                  create-version: true
                  skip-screenshots: true
                id: metadata

            """), "\(metadata)")
        #expect(!metadata.contains("- appstore.upload:") && !metadata.contains("- appstore.submit:"))
        let listing = try String(contentsOfFile: folder.path + "/lanes/listing.yml", encoding: .utf8)
        #expect(!listing.contains("- appstore.upload:"))
        // The first call sends nothing but would upload a binary deliver finds; the second
        // sends the listing.
        #expect(result.standardOutput.contains("""
            lane 'listing' → lanes/listing.yml, 2 steps from 2 actions
              differs:        deliver turns a phased release off when sending the metadata (phased_release defaults to false); the lane leaves it as it is: appstore.submit's phased-release sets it
              not translated: fastlane/Fastfile:6 appstore(ipa: …) — none given and none built in the lane: deliver uploads the newest *.ipa (or *.pkg) in the project folder when there is one; the lane uploads none: add an appstore.upload step if a build should go up
              not translated: fastlane/Fastfile:7 appstore(ipa: …) — none given and none built in the lane: deliver uploads the newest *.ipa (or *.pkg) in the project folder when there is one; the lane uploads none: add an appstore.upload step if a build should go up

            """), "\(result.standardOutput)")
        var after = try Snapshot.of(folder.path)
        for written in ["lanes", "lanes/metadata.yml", "lanes/listing.yml"] { after.removeValue(forKey: written) }
        #expect(after == before)
        for lane in ["metadata", "listing"] {
            let validated = try validate(lane, in: folder)
            #expect(validated.status == 0, "\(lane): \(validated.standardOutput)\(validated.standardError)")
        }
    }

    /// Every option the translator writes for deliver is one the steps take (validate passes), and
    /// the Deliverfile's settings count where the call does not give them.
    @Test func deliverWithAPackageAScheduledReleaseAndADeliverfileValidates() throws {
        let folder = try project("""
            lane :mac do
              deliver(pkg: "build/App.pkg", platform: "osx", app_version: "3.0", submit_for_review: true,
                      auto_release_date: 1767225600000, phased_release: true, release_notes: { 'en-US' => "Fixes" })
            end
            """, files: ["fastlane/Appfile": "app_identifier 'com.example.app'\n",
                         "fastlane/Deliverfile": "skip_screenshots true\noverwrite_screenshots true\nlanguages ['en-US']\n"])
        let (output, lane) = try translate(folder, lane: "mac")
        #expect(output.hasPrefix("read     fastlane/Fastfile: 1 lane, fastlane/Appfile, fastlane/Deliverfile\n"), "\(output)")
        #expect(lane.contains("""
                  metadata-path: fastlane/metadata
                  platform: MAC_OS
                  version: "3.0"
                  create-version: true
                  locales: [en-US]
                  skip-screenshots: true
                id: metadata
            """), "\(lane)")
        #expect(lane.contains("""
                  release-notes: { en-US: Fixes }
                  release-type: SCHEDULED
                  earliest-release-date: "2026-01-01T00:00:00Z"
                  phased-release: true
                id: submit
            """), "\(lane)")
        let validated = try validate("mac", in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    // MARK: - slack

    /// fastlane's two documented examples.
    @Test func slackIsNotify() throws {
        let folder = try project("""
            lane :announce do
              slack(message: "App successfully released!")
              slack(
                message: "App successfully released!",
                channel: "#channel",
                success: true,
                payload: {
                  "Build Date" => Time.new.to_s,
                  "Built by" => "Jenkins",
                },
                default_payloads: [:git_branch, :git_author],
                attachment_properties: {
                  thumb_url: "http://example.com/path/to/thumb.png",
                }
              )
            end
            """)
        let (output, lane) = try translate(folder, lane: "announce")
        #expect(lane.contains("""
              # fastlane/Fastfile:2 slack(message: "App successfully released!")
              - notify:
                  service: slack
                  url: "${{ secrets.SLACK_URL }}"
                  message: "App successfully released!"
              # fastlane/Fastfile:3 slack( …
              - notify:
                  service: slack
                  url: "${{ secrets.SLACK_URL }}"
                  message: "App successfully released!"

            """), "\(lane)")
        #expect(output.contains("""
            lane 'announce' → lanes/announce.yml, 2 steps from 2 actions
              differs:        slack adds the git branch, its author and the last commit to every message (default_payloads); notify names the lane and its status: put the others in message if the channel needs them
              not translated: fastlane/Fastfile:3 slack(channel: …) — notify posts through the webhook to the webhook's own channel (Slack apps' webhooks ignore a channel); to post to another channel, give notify a bot token (token: ${{ secrets.SLACK_BOT_TOKEN }}) and channel instead of url
              not translated: fastlane/Fastfile:3 slack(payload: …) — notify has no free fields: put them in message (${{ steps.ID.outputs.NAME }} and ${{ env.NAME }} work there), or use its version, build-number and links options
              not translated: fastlane/Fastfile:3 slack(attachment_properties: …) — notify sends Block Kit blocks (a header and a section), not legacy attachments: put the text in message
              not translated: fastlane/Fastfile:3 slack(default_payloads: …) — notify names the lane and its status, not git_branch, git_author: put them in message

            """), "\(output)")
        let validated = try validate("announce", in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    /// A webhook URL written in the Fastfile is a credential: the lane reads it from a secret and
    /// repeats it nowhere.
    @Test func aSlackURLInTheFastfileIsNotCopied() throws {
        let folder = try project("""
            lane :announce do
              slack(message: "Out", slack_url: "https://hooks.slack.com/services/T000/B000/XXXXsecretXXXX", fail_on_error: false)
            end
            """)
        let (output, lane) = try translate(folder, lane: "announce")
        #expect(!lane.contains("XXXXsecretXXXX") && !output.contains("XXXXsecretXXXX"))
        #expect(lane.contains("""
              # fastlane/Fastfile:2 slack(message: "Out", slack_url: "…", fail_on_error: false)
              - notify:
                  service: slack
                  url: "${{ secrets.SLACK_URL }}"
                  message: Out
                  fail-on-error: false

            """), "\(lane)")
        #expect(output.contains("  differs:        slack's slack_url is written in the Fastfile: the lane takes it from the secret SLACK_URL instead; set that secret, and revoke the one in the Fastfile (it stays in the repository's history)\n"), "\(output)")
        let validated = try validate("announce", in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    // MARK: - synx

    @Test func synxIsSyncInSynxsLayout() throws {
        let folder = try project("""
            lane :tidy do
              synx(prune: true, exclusion: ["/App/Vendor", "/App/Generated"], no_sort_by_name: true, quiet: true)
            end
            """)
        let (output, lane) = try translate(folder, lane: "tidy")
        #expect(lane.contains("""
              - sync:
                  project: App.xcodeproj
                  folders-from: names
                  prune: true
                  exclude: [/App/Vendor, /App/Generated]
                  sort-by-name: false

            """), "\(lane)")
        #expect(output.contains("  differs:        synx: sync refuses to run on uncommitted changes, which synx did not check (allow-dirty: true runs anyway); it moves files as one transaction and stages them as renames\n"), "\(output)")
        #expect(output.hasSuffix("1 lane written, 0 items not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"), "\(output)")
        let validated = try validate("tidy", in: folder)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")
    }

    // MARK: - pem

    /// fastlane's documented examples: listed with the commands that replace them, not "no step".
    @Test func pemIsListedWithTheCommandsThatReplaceIt() throws {
        let folder = try project("""
            lane :push do
              gym
              get_push_certificate
              pem(app_identifier: "com.example.app", p12_password: ENV["PUSH_P12_PASSWORD"], save_private_key: true)
            end
            """)
        let (output, _) = try translate(folder, lane: "push")
        #expect(output.contains("""
              not translated: fastlane/Fastfile:3 get_push_certificate — not a lane step: Apple's API cannot make push certificates (fastlane drives the portal's website). Make it in the portal (Identifiers → the app → Push Notifications) and export it as .p12, then 'slipway push check push.p12' and 'slipway signing push add push.p12 --storage URL' (docs/push.md); or use a .p8 key, checked with 'slipway push check AuthKey_KEYID.p8 --team-id TEAM'
              not translated: fastlane/Fastfile:4 pem(app_identifier: "com.example.app", p12_password: ENV["PUSH_P12_PASSWORD"], save_private_key: true) — not a lane step: Apple's API cannot make push certificates (fastlane drives the portal's website). Make it in the portal (Identifiers → the app → Push Notifications) and export it as .p12, then 'slipway push check push.p12 --password-env PUSH_P12_PASSWORD --topic com.example.app' and 'slipway signing push add push.p12 --password-env PUSH_P12_PASSWORD --storage URL' (docs/push.md); or use a .p8 key, checked with 'slipway push check AuthKey_KEYID.p8 --team-id TEAM'

            """), "\(output)")
        #expect(!output.contains("Slipway has no step for"))
        #expect(output.hasSuffix("1 lane written, 2 items not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"), "\(output)")
    }

    // MARK: - cocoapods

    /// Issue 40 point 2: a bare `cocoapods` with a Gemfile is `bundle exec pod install`, as fastlane
    /// runs it (use_bundle_exec defaults to true); without one, `pod install`.
    @Test func aBareCocoapodsUsesBundlerWhenTheProjectHasAGemfile() throws {
        let fastfile = "lane :pods do\n  cocoapods\nend\n"
        let bundled = try project(fastfile, files: ["Gemfile": "source 'https://rubygems.org'\ngem 'cocoapods', '1.15.2'\n"])
        let (output, lane) = try translate(bundled, lane: "pods")
        #expect(lane.contains("  # fastlane/Fastfile:2 cocoapods\n  - run:\n      command: bundle exec pod install\n"), "\(lane)")
        #expect(output.hasSuffix("1 lane written, 0 items not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"), "\(output)")
        let validated = try validate("pods", in: bundled)
        #expect(validated.status == 0, "\(validated.standardOutput)\(validated.standardError)")

        let plain = try project(fastfile)
        let (_, plainLane) = try translate(plain, lane: "pods")
        #expect(plainLane.contains("  - run:\n      command: pod install\n"), "\(plainLane)")
    }

    /// fastlane's documented example and the other flags: the command line fastlane builds.
    @Test func cocoapodsArgumentsBecomeTheCommandLineFastlaneBuilds() throws {
        let folder = try project("""
            lane :pods do
              cocoapods(clean_install: true, podfile: "./CustomPodfile")
              cocoapods(podfile: "ios/Podfile", use_bundle_exec: false, repo_update: true, silent: true, ansi: false, deployment: true)
              cocoapods(try_repo_update_on_error: true, verbose: true, error_callback: lambda { |result| puts result })
            end
            """, files: ["Gemfile": "gem 'cocoapods'\n"])
        let (output, lane) = try translate(folder, lane: "pods")
        #expect(lane.contains("""
              - run:
                  command: "cd . && bundle exec pod install --clean-install"
              # fastlane/Fastfile:3 cocoapods(podfile: "ios/Podfile", use_bundle_exec: false, repo_update: true, silent: true, ansi: false, deployment: true)
              - run:
                  command: "cd ios && pod install --repo-update --silent --no-ansi --deployment"
              # fastlane/Fastfile:4 cocoapods(try_repo_update_on_error: true, verbose: true, error_callback: lambda { |result| puts result })
              - run:
                  command: "(bundle exec pod install --verbose || bundle exec pod install --verbose --repo-update)"

            """), "\(lane)")
        #expect(output.contains("  not translated: fastlane/Fastfile:4 cocoapods(error_callback: …) — a Ruby block: the run step fails with pod's output instead; add a step under finally: for what the block did\n"), "\(output)")
        #expect(output.hasSuffix("1 lane written, 1 item not translated. Next: 'slipway validate NAME --platform macos' for each lane.\n"), "\(output)")
    }
}
