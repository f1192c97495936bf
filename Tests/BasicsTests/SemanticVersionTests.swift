import Basics
import Foundation
import Testing
import TestThreads

@Suite("SemanticVersion", .dedicatedThreads)
struct SemanticVersionTests {
    private func version(_ text: String) throws -> SemanticVersion {
        try SemanticVersion.parse(text)
    }

    @Test("parses the core, pre-release and build parts", arguments: [
        ("1.2.3", 1, 2, 3, [String](), [String]()),
        ("0.0.0", 0, 0, 0, [], []),
        ("1.2.3-rc.1+build.5", 1, 2, 3, ["rc", "1"], ["build", "5"]),
        ("10.20.30-alpha-beta.0.x-y", 10, 20, 30, ["alpha-beta", "0", "x-y"], []),
        ("1.0.0+001.sha-5114f85", 1, 0, 0, [], ["001", "sha-5114f85"]),
        ("1.0.0-0A.is.legal", 1, 0, 0, ["0A", "is", "legal"], []),
    ])
    func parses(text: String, major: Int, minor: Int, patch: Int, prerelease: [String], build: [String]) throws {
        let parsed = try version(text)
        #expect(parsed.major == major && parsed.minor == minor && parsed.patch == patch)
        #expect(parsed.prerelease == prerelease)
        #expect(parsed.build == build)
        #expect(parsed.description == text)
        #expect(try version(parsed.description).isIdentical(to: parsed))
        #expect(SemanticVersion(text)?.isIdentical(to: parsed) == true)
    }

    @Test("parse(tag:) accepts an optional leading v; parse(_:) does not")
    func tags() throws {
        #expect(try SemanticVersion.parse(tag: "v1.2.3") == (try version("1.2.3")))
        #expect(try SemanticVersion.parse(tag: "1.2.3-rc.1") == (try version("1.2.3-rc.1")))
        #expect(SemanticVersion(tag: "v2.0.0")?.major == 2)
        #expect(SemanticVersion(tag: "release-2") == nil)
        #expect(throws: SemanticVersionError.invalidNumber(text: "v1.2.3", component: "major", value: "v1")) {
            try SemanticVersion.parse("v1.2.3")
        }
        #expect(throws: SemanticVersionError.invalidNumber(text: "vv1.2.3", component: "major", value: "v1")) {
            try SemanticVersion.parse(tag: "vv1.2.3")
        }
    }

    @Test("rejects malformed versions with the exact error", arguments: [
        ("", SemanticVersionError.empty),
        ("1.2", .invalidCore(text: "1.2")),
        ("1.2.3.4", .invalidCore(text: "1.2.3.4")),
        ("01.2.3", .leadingZero(text: "01.2.3", identifier: "01")),
        ("1.02.3", .leadingZero(text: "1.02.3", identifier: "02")),
        ("1.2.3-rc.01", .leadingZero(text: "1.2.3-rc.01", identifier: "01")),
        ("1.2.3-", .emptyIdentifier(text: "1.2.3-", section: "pre-release")),
        ("1.2.3-rc..1", .emptyIdentifier(text: "1.2.3-rc..1", section: "pre-release")),
        ("1.2.3+", .emptyIdentifier(text: "1.2.3+", section: "build metadata")),
        ("1.2.3-rc_1", .invalidCharacter(text: "1.2.3-rc_1", identifier: "rc_1", character: "_")),
        ("1.2.3+büild", .invalidCharacter(text: "1.2.3+büild", identifier: "büild", character: "ü")),
        (" 1.2.3", .invalidNumber(text: " 1.2.3", component: "major", value: " 1")),
        ("1.x.3", .invalidNumber(text: "1.x.3", component: "minor", value: "x")),
        ("1..3", .invalidNumber(text: "1..3", component: "minor", value: "")),
        ("-1.2.3", .invalidCore(text: "-1.2.3")),
        ("1.2.99999999999999999999", .numberTooLarge(text: "1.2.99999999999999999999", identifier: "99999999999999999999")),
    ])
    func rejects(text: String, expected: SemanticVersionError) {
        #expect(throws: expected) { try SemanticVersion.parse(text) }
        #expect(SemanticVersion(text) == nil)
    }

    @Test("error messages quote the text and show the expected form")
    func messages() {
        let leading = SemanticVersionError.leadingZero(text: "01.2.3", identifier: "01")
        #expect(leading.localizedDescription
            == "'01.2.3' is not a semantic version: the number '01' has a leading zero. "
            + "Write numbers without leading zeros, e.g. '1.2.3' rather than '01.02.03'.")
        let core = SemanticVersionError.invalidCore(text: "1.2")
        #expect(core.localizedDescription.hasPrefix("'1.2' is not a semantic version: it needs exactly three numbers"))
        #expect(core.localizedDescription.contains("e.g. '1.2.3' or '1.2.3-rc.1'"))
    }

    @Test("orders by SemVer 2.0 precedence, including pre-releases")
    func precedence() throws {
        let ordered = try [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
            "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "1.10.0", "2.0.0",
        ].map(version)
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
            #expect(!(higher < lower))
            #expect(lower != higher)
        }
        #expect(ordered.shuffled().sorted() == ordered)
        #expect(try version("1.0.0-99999999999999999999") > version("1.0.0-2"))
        #expect(try version("1.0.0-2") < version("1.0.0-a"))
    }

    @Test("build metadata is ignored for precedence, equality and hashing")
    func buildMetadata() throws {
        let a = try version("1.0.0+a"), b = try version("1.0.0+b")
        #expect(a == b)
        #expect(!(a < b) && !(b < a))
        #expect(Set([a, b]).count == 1)
        #expect(!a.isIdentical(to: b))
    }

    @Test("bumps", arguments: [
        ("1.2.3", SemanticVersion.Bump.major, "2.0.0"),
        ("1.2.3", .minor, "1.3.0"),
        ("1.2.3", .patch, "1.2.4"),
        ("1.2.3+build.7", .patch, "1.2.4"),
        ("1.2.3", .prerelease("rc"), "1.2.4-rc.1"),
        ("1.2.4-rc.1", .prerelease("rc"), "1.2.4-rc.2"),
        ("1.2.4-rc.9", .prerelease("rc"), "1.2.4-rc.10"),
        ("1.2.4-beta.3", .prerelease("rc"), "1.2.4-rc.1"),
        ("1.2.4-rc", .prerelease("rc"), "1.2.4-rc.1"),
        ("1.2.4-rc.1", .patch, "1.2.4"),
        ("1.3.0-rc.1", .minor, "1.3.0"),
        ("1.3.1-rc.1", .minor, "1.4.0"),
        ("2.0.0-rc.1", .major, "2.0.0"),
        ("2.1.0-rc.1", .major, "3.0.0"),
    ])
    func bumps(from: String, bump: SemanticVersion.Bump, to: String) throws {
        let next = try version(from).bumped(bump)
        #expect(next.description == to)
        #expect(next > (try version(from)))
    }

    @Test("bumps that would go backwards, overflow or use a bad label are errors")
    func badBumps() throws {
        #expect(throws: SemanticVersionError.notIncreasing(from: "1.2.4-rc.1", to: "1.2.4-beta.1")) {
            try version("1.2.4-rc.1").bumped(.prerelease("beta"))
        }
        #expect(throws: SemanticVersionError.overflow(version: "\(Int.max).0.0", component: "major")) {
            try version("\(Int.max).0.0").bumped(.major)
        }
        #expect(throws: SemanticVersionError.invalidCharacter(text: "1.2.3-r c", identifier: "r c", character: " ")) {
            try version("1.2.3").bumped(.prerelease("r c"))
        }
        #expect(throws: SemanticVersionError.emptyIdentifier(text: "1.2.3-", section: "pre-release")) {
            try version("1.2.3").bumped(.prerelease(""))
        }
    }

    @Test("memberwise init validates; Codable round-trips through the text")
    func initAndCodable() throws {
        let made = try SemanticVersion(major: 1, minor: 2, patch: 3, prerelease: ["rc", "1"], build: ["b"])
        #expect(made.description == "1.2.3-rc.1+b")
        #expect(throws: SemanticVersionError.negativeComponent(component: "minor", value: -1)) {
            try SemanticVersion(major: 1, minor: -1, patch: 0)
        }
        #expect(throws: SemanticVersionError.leadingZero(text: "1.0.0-01", identifier: "01")) {
            try SemanticVersion(major: 1, minor: 0, patch: 0, prerelease: ["01"])
        }
        let data = try JSONEncoder().encode(["tool": made])
        #expect(String(decoding: data, as: UTF8.self) == #"{"tool":"1.2.3-rc.1+b"}"#)
        let decoded = try JSONDecoder().decode([String: SemanticVersion].self, from: data)
        #expect(decoded["tool"]?.isIdentical(to: made) == true)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([SemanticVersion].self, from: Data(#"["1.2"]"#.utf8))
        }
    }
}
