@testable import FastlaneImport
import Testing
import TestThreads

/// Reading fastlane's Ruby without running it: lanes, calls and their literal arguments, and
/// clear errors for what cannot be split into statements.
@Suite(.dedicatedThreads) struct FastfileReaderTests {
    func calls(_ lane: Fastfile.Lane) -> [String] {
        lane.statements.compactMap { if case .call(let call) = $0.kind { return call.name } else { return nil } }
    }

    @Test func lanesInPlatformsWithDescriptionsAndBeforeAll() throws {
        let fastfile = try Fastfile(source: """
            fastlane_version '2.137.0'
            default_platform(:ios)

            before_all do
              ensure_git_status_clean
            end

            platform :ios do
              desc "Ship it"
              lane :beta do |options|
                gym(scheme: "App", export_options: { method: "app-store", provisioningProfiles: { "com.a" => "A Store" } })
                pilot groups: %w[QA Friends], changelog: 'Fixes'
              end

              private_lane :setup do
                match type: :appstore
              end
            end

            lane :plain do
              scan
            end
            """, path: "fastlane/Fastfile")
        #expect(fastfile.lanes.map(\.name) == ["beta", "setup", "plain"])
        #expect(fastfile.lanes.map(\.platform) == ["ios", "ios", nil])
        #expect(fastfile.lanes.map(\.isPrivate) == [false, true, false])
        #expect(fastfile.lanes[0].description == "Ship it")
        #expect(fastfile.lanes[0].line == 10)
        #expect(calls(fastfile.lanes[0]) == ["gym", "pilot"])
        #expect(fastfile.beforeAll.count == 1)
        guard case .call(let gym) = fastfile.lanes[0].statements[0].kind else { Issue.record("gym is not a call"); return }
        #expect(gym.argument("scheme") == .string("App"))
        #expect(gym.argument("export_options") == .hash([
            RubyPair(key: "method", value: .string("app-store")),
            RubyPair(key: "provisioningProfiles", value: .hash([RubyPair(key: "com.a", value: .string("A Store"))])),
        ]))
        guard case .call(let pilot) = fastfile.lanes[0].statements[1].kind else { Issue.record("pilot is not a call"); return }
        #expect(pilot.argument("groups") == .array([.string("QA"), .string("Friends")]))
        #expect(pilot.argument("changelog") == .string("Fixes"))
        guard case .call(let match) = fastfile.lanes[1].statements[0].kind else { Issue.record("match is not a call"); return }
        #expect(match.argument("type") == .symbol("appstore"))
    }

    @Test func rubyThatIsNotACallIsKeptApartWithItsLines() throws {
        let fastfile = try Fastfile(source: """
            lane :release do
              version = get_version_number(target: "App")
              if ENV['CI']
                sh "echo 'in CI # not a comment'"
              else
                UI.message("local")
              end
              Dir.children('x').each do |file|
                install_provisioning_profile(path: file)
              end
              notes = <<~NOTES
                Line one
                  Line two
              NOTES
              sh('swiftlint', "--strict") unless is_ci
              files = `git ls-files`.scan(/"([^"]+)" = [^;]+;/)
              increment_build_number(
                build_number: ENV["BUILD"],
                xcodeproj: "App.xcodeproj"
              )
            end
            """, path: "Fastfile")
        let statements = try #require(fastfile.lanes.first).statements
        #expect(statements.map(\.line) == [2, 3, 8, 11, 15, 16, 17])
        guard case .assignment("version", let call?, _) = statements[0].kind else { Issue.record("\(statements[0].kind)"); return }
        #expect(call.name == "get_version_number")
        #expect(statements[1].kind == .compound("if"))
        #expect(statements[1].endLine == 7)
        #expect(statements[2].kind == .other)
        #expect(statements[2].endLine == 10)
        guard case .assignment("notes", nil, _) = statements[3].kind else { Issue.record("\(statements[3].kind)"); return }
        guard case .call(let sh) = statements[4].kind else { Issue.record("\(statements[4].kind)"); return }
        #expect(sh.positional == [.string("swiftlint"), .string("--strict")])
        #expect(sh.condition == "unless is_ci")
        guard case .call(let increment) = statements[6].kind else { Issue.record("\(statements[6].kind)"); return }
        #expect(increment.argument("build_number") == .environment("BUILD"))
        #expect(increment.argument("xcodeproj") == .string("App.xcodeproj"))
        #expect(statements[6].endLine == 20)
    }

    @Test func interpolationAndLaneOptionsAreKeptAsParts() throws {
        let fastfile = try Fastfile(source: """
            lane :tag do |options|
              add_git_tag(tag: "v#{options[:version]}-#{ENV['BUILD']}", message: 'no #{interpolation}')
            end
            """, path: "Fastfile")
        guard case .call(let call) = try #require(fastfile.lanes.first?.statements.first).kind else { Issue.record("not a call"); return }
        #expect(call.argument("tag") == .interpolated([.text("v"), .code("options[:version]"), .text("-"), .code("ENV['BUILD']")]))
        #expect(call.argument("message") == .string("no #{interpolation}"))
    }

    @Test func appfileAndMatchfileSettings() throws {
        let appfile = try FastlaneSettings(source: """
            app_identifier("com.example.app") # the app
            apple_id ENV["APPLE_ID"]
            team_id "ABCDE12345"
            for_platform :osx do
              app_identifier "com.example.mac"
            end
            """, path: "fastlane/Appfile")
        #expect(appfile.value("app_identifier") == .string("com.example.app"))
        #expect(appfile.value("apple_id") == .environment("APPLE_ID"))
        #expect(appfile.value("team_id") == .string("ABCDE12345"))
        #expect(appfile.skipped == [])
        #expect(appfile.value("app_identifier", platform: "osx") == .string("com.example.mac"))
        #expect(appfile.value("app_identifier", lane: "beta", platform: "ios") == .string("com.example.app"))
        let matchfile = try FastlaneSettings(source: """
            type "appstore"
            for_lane :adhoc do
              type "adhoc"
            end
            puts "hello" if true
            """, path: "fastlane/Matchfile")
        #expect(matchfile.value("type", lane: "adhoc") == .string("adhoc"))
        #expect(matchfile.value("type", lane: "beta") == .string("appstore"))
        #expect(matchfile.skipped.map(\.line) == [5])
    }

    @Test(arguments: [
        ("lane :a do\n  gym(scheme: \"App)\nend\n", "Fastfile:2:15: this string is not closed"),
        ("lane :a do\n  gym\n", "Fastfile:1:9: this block has no matching 'end'"),
        ("gym\nend\n", "Fastfile:2:1: 'end' without a block to close"),
        ("lane :a do\n  notes = <<~EOS\n  text\nend\n", "Fastfile:2:11: the heredoc ending with 'EOS' is not closed"),
        ("=begin\nlane :a do\n", "Fastfile:1:1: '=begin' has no '=end'"),
        ("lane :a do\n  if x\n    gym\nend\n", "Fastfile:1:9: this block has no matching 'end'"),
    ])
    func syntaxErrorsNameTheLineAndColumn(source: String, expected: String) {
        #expect {
            _ = try Fastfile(source: source, path: "Fastfile")
        } throws: { error in
            guard let error = error as? FastlaneImportError else { return false }
            return error.errorDescription?.hasPrefix(expected + "; Slipway reads Fastfiles without running them") == true
        }
    }
}
