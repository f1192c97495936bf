import Basics
import Xcode

/// Something in fastlane's files that did not become part of a Slipway lane.
public struct UntranslatedItem: Sendable, Hashable {
    /// `fastlane/Fastfile:42`.
    public var location: String
    /// The action or statement, as written (first line).
    public var what: String
    /// Why, and what to do instead.
    public var reason: String
}

/// The result of translating a Fastfile.
public struct FastlaneTranslation: Sendable {
    /// A translated lane and where it came from.
    public struct Lane: Sendable {
        public var draft: LaneDraft
        /// The fastlane lane (`ios beta`).
        public var source: String
        /// Actions translated, by action name.
        public var translated: [String]
        /// Per-lane differences a user should know (fastlane does X, Slipway does Y).
        public var differences: [String]
        public var untranslated: [UntranslatedItem]
        /// The part of `untranslated` that comes from `before_all` (the same in every lane).
        public var hookUntranslated: [UntranslatedItem] = []
    }

    public var lanes: [Lane] = []
    /// Lanes with nothing translatable (only Ruby, or only unknown actions).
    public var skippedLanes: [(name: String, reason: String)] = []
    /// Settings of the Appfile and Matchfile that were not used.
    public var notes: [String] = []
}

/// Turns a Fastfile (with its Appfile and Matchfile, and a survey of the Xcode project) into
/// Slipway lanes. Public lanes become lane files; private lanes and `before_all` are inlined where
/// fastlane would run them. Every action or statement it cannot translate is listed with its
/// line, never dropped without a word.
public struct FastlaneTranslator: Sendable {
    public var fastfile: Fastfile
    public var appfile: FastlaneSettings?
    public var matchfile: FastlaneSettings?
    public var survey: XcodeProjectSurvey
    /// gym's and scan's defaults.
    public var gymfile: FastlaneSettings?
    public var scanfile: FastlaneSettings?
    /// deliver's defaults.
    public var deliverfile: FastlaneSettings?
    /// Whether the project folder has a Gemfile (cocoapods runs `bundle exec pod install`).
    public var projectHasGemfile = false
    /// Imports that were not followed, listed with every lane's untranslated items.
    public var skippedImports: [UntranslatedItem] = []
    /// The top-level constants known without Ruby, written out (see `FastlaneConstants`).
    var literalConstants: [String: RubyValue] = [:]

    public init(fastfile: Fastfile, appfile: FastlaneSettings?, matchfile: FastlaneSettings?, survey: XcodeProjectSurvey) {
        self.fastfile = fastfile
        self.appfile = appfile
        self.matchfile = matchfile
        self.survey = survey
    }

    /// A translator for every file that was read.
    public init(files: FastlaneFiles, survey: XcodeProjectSurvey) {
        self.init(fastfile: files.fastfile, appfile: files.appfile, matchfile: files.matchfile, survey: survey)
        gymfile = files.gymfile
        scanfile = files.scanfile
        deliverfile = files.deliverfile
        projectHasGemfile = files.projectHasGemfile
        skippedImports = files.skippedImports
    }

    /// Translates every public lane.
    public func translate() -> FastlaneTranslation {
        var translator = self
        translator.literalConstants = FastlaneConstants.literals(of: fastfile)
        return translator.translateLanes()
    }

    private func translateLanes() -> FastlaneTranslation {
        var result = FastlaneTranslation()
        let names = Dictionary(fastfile.lanes.map { ($0.name, 1) }, uniquingKeysWith: +)
        for lane in fastfile.lanes where !lane.isPrivate {
            let clash = (names[lane.name] ?? 0) > 1
            let name = clash ? "\(lane.platform ?? "default")-\(lane.name)" : lane.name
            var builder = LaneBuilder(translator: self, name: LaneSlug.make(name), lane: lane)
            builder.run()
            builder.putPreflightFirst()
            let translated = builder.output
            if translated.draft.steps.isEmpty {
                result.skippedLanes.append((translated.source, "no action in it has a Slipway step"
                    + (translated.untranslated.isEmpty ? "" : " (\(translated.untranslated.count) statements listed below)")))
                result.lanes.append(translated)
                continue
            }
            result.lanes.append(translated)
        }
        for constant in fastfile.constants where literalConstants[constant.name] == nil {
            result.notes.append("\(constant.statement.file):\(constant.statement.line): '\(constant.statement.text.prefix(80))' is a top-level value only Ruby knows; every argument that uses \(constant.name) is listed")
        }
        for item in skippedImports { result.notes.append("\(item.location): '\(item.what)' was not read: \(item.reason)") }
        for file in [appfile, matchfile, gymfile, scanfile, deliverfile].compactMap({ $0 }) {
            for entry in file.skipped {
                result.notes.append("\(file.path):\(entry.line): '\(entry.text.prefix(80))' was not read (only plain settings are)")
            }
        }
        return result
    }

    /// A setting from the Matchfile, else the Appfile, as fastlane sees it in `lane`.
    func setting(_ name: String, preferMatchfile: Bool = true, lane: Fastfile.Lane? = nil) -> RubyValue? {
        let files = preferMatchfile ? [matchfile, appfile] : [appfile, matchfile]
        return files.lazy.compactMap { $0?.value(name, lane: lane?.name, platform: lane?.platform) }.first
    }
}

/// Lane and input names from Ruby names: lowercase ASCII letters, digits and dashes.
enum LaneSlug {
    static func make(_ name: String) -> String {
        var result = ""
        for character in name.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber { result.append(character) } else if !result.hasSuffix("-") { result.append("-") }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? "lane" : result
    }
}
