import Basics

/// What a Fastfile says, read without running it: its lanes, each as a list of statements, and
/// the `before_all` statements that fastlane runs before every lane.
public struct Fastfile: Sendable {
    /// A statement of a lane.
    public struct Statement: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// A call of an action (or of another lane) with its literal arguments.
            case call(RubyCall)
            /// `if`/`unless`/`case`/`begin`/a loop: what runs depends on Ruby.
            case compound(String)
            /// `name = value`: the value's call when it is one (`log = changelog_from_git_commits`),
            /// else its Ruby source.
            case assignment(String, RubyCall?, String)
            /// A call with a `do … end` block (`Dir.children(d).each do |f|`), an assignment, or
            /// any other Ruby.
            case other
        }
        public var kind: Kind
        /// The source, as written (first line only for long statements).
        public var text: String
        /// The file it is in (a Fastfile can import others).
        public var file: String
        public var line: Int
        public var endLine: Int
    }

    /// A lane.
    public struct Lane: Sendable, Hashable {
        public var name: String
        /// `platform :ios do … end` around it, if any.
        public var platform: String?
        public var isPrivate: Bool
        /// The `desc` before it.
        public var description: String?
        public var statements: [Statement]
        /// The file it is in.
        public var file: String
        public var line: Int
    }

    /// The file's path, for messages.
    public var path: String
    public var lanes: [Lane] = []
    /// Statements of `before_all` (run before every lane), by platform (nil: all platforms).
    public var beforeAll: [Statement] = []
    /// Other top-level things that are not lanes (`after_all`, `error`, `import`, helpers).
    public var otherTopLevel: [Statement] = []
    /// `def` methods, in the order read (imports after the file that imports them).
    public var methods: [Method] = []
    /// Top-level assignments (`VERSION_FILE = 'Config/Version.xcconfig'`).
    public var constants: [Constant] = []

    /// The largest Fastfile, Appfile or Matchfile read (they are a few KB; this bounds memory on
    /// an untrusted checkout).
    public static let maximumSize = 1 << 20

    /// Reads Ruby source.
    ///
    /// - Throws: `FastlaneImportError.syntax` with the file, line and column.
    public init(source: String, path: String) throws {
        self.path = path
        let bytes = Array(source.utf8)
        var tokenizer = RubyTokenizer(source: source, file: path)
        var parser = RubyStatementParser(tokens: try tokenizer.tokenize(), file: path)
        let reader = RubyCallReader(source: bytes)
        read(try parser.parse(), platform: nil, reader: reader)
    }

    private mutating func read(_ statements: [RubyStatement], platform: String?, reader: RubyCallReader) {
        var description: String?
        for statement in statements {
            let call = statement.compound == nil ? reader.call(statement.head) : nil
            if let call, let block = statement.block {
                switch call.name {
                case "lane", "private_lane":
                    if let name = call.positional.first?.text {
                        lanes.append(Lane(name: name, platform: platform, isPrivate: call.name == "private_lane",
                                          description: description,
                                          statements: block.body.map { Self.statement($0, reader: reader, file: path) },
                                          file: path, line: statement.line))
                        description = nil
                        continue
                    }
                case "platform":
                    if let name = call.positional.first?.text {
                        read(block.body, platform: name, reader: reader)
                        continue
                    }
                case "before_all", "before_each":
                    beforeAll.append(contentsOf: block.body.map { Self.statement($0, reader: reader, file: path) })
                    continue
                default: break
                }
            }
            if let call, call.name == "desc", statement.block == nil {
                description = call.positional.first?.text
                continue
            }
            if let call, ["default_platform", "fastlane_version", "min_fastlane_version", "fastlane_require"].contains(call.name) {
                continue
            }
            if statement.compound == "def", let method = Self.method(statement, reader: reader, file: path) {
                methods.append(method)
                continue
            }
            let read = Self.statement(statement, reader: reader, file: path)
            if case .assignment(let name, _, _) = read.kind, statement.head.count > 2 {
                constants.append(Constant(name: name, value: reader.value(statement.head.dropFirst(2)[...]), statement: read))
                continue
            }
            otherTopLevel.append(Self.statement(statement, reader: reader, file: path))
        }
    }

    /// Adds the lanes and hooks of an imported file (`import './lanes/ios.rb'`).
    public mutating func merge(_ other: Fastfile) {
        lanes += other.lanes
        beforeAll += other.beforeAll
        otherTopLevel += other.otherTopLevel
        methods += other.methods
        constants += other.constants
    }

    /// The paths of `import 'path'` statements with a literal path, and their statements.
    public var imports: [(path: String, statement: Statement)] {
        otherTopLevel.compactMap { statement in
            guard case .call(let call) = statement.kind, call.name == "import", call.keywords.isEmpty,
                  call.positional.count == 1, case .string(let path) = call.positional[0], call.condition == nil else { return nil }
            return (path, statement)
        }
    }

    static func statement(_ statement: RubyStatement, reader: RubyCallReader, file: String) -> Statement {
        let full = reader.text(statement.head[...])
        let firstLine = full.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? full
        let text = firstLine.count < full.count || statement.block != nil ? firstLine + " …" : full
        let kind: Statement.Kind
        if let keyword = statement.compound {
            kind = .compound(keyword)
        } else if statement.block == nil, statement.head.count > 2, let name = statement.head[0].identifier,
                  statement.head[1].isPunctuation("=") {
            let value = Array(statement.head.dropFirst(2))
            kind = .assignment(name, reader.call(value), reader.text(value[...]))
        } else if statement.block == nil, let call = reader.call(statement.head) {
            kind = .call(call)
        } else {
            kind = .other
        }
        return Statement(kind: kind, text: text, file: file, line: statement.line, endLine: statement.endLine)
    }
}

/// The settings of an Appfile or Matchfile: top-level calls with one literal value, such as
/// `app_identifier("com.example.app")` or `git_url "https://…"`.
public struct FastlaneSettings: Sendable, Hashable {
    /// The file's path, for messages.
    public var path: String
    /// Settings in order, with the lane or platform they are limited to.
    public var entries: [Entry] = []
    /// Statements that are not plain settings (Ruby code).
    public var skipped: [Entry] = []

    public struct Entry: Sendable, Hashable {
        public var name: String
        public var value: RubyValue
        public var text: String
        public var line: Int
        /// Inside `for_lane :NAME do … end`.
        public var lane: String? = nil
        /// Inside `for_platform :NAME do … end`.
        public var platform: String? = nil
    }

    /// Reads an Appfile, Matchfile, Gymfile or Scanfile.
    public init(source: String, path: String) throws {
        self.path = path
        var tokenizer = RubyTokenizer(source: source, file: path)
        var parser = RubyStatementParser(tokens: try tokenizer.tokenize(), file: path)
        let reader = RubyCallReader(source: Array(source.utf8))
        read(try parser.parse(), reader: reader, lane: nil, platform: nil)
    }

    private mutating func read(_ statements: [RubyStatement], reader: RubyCallReader, lane: String?, platform: String?) {
        for statement in statements {
            let text = reader.text(statement.head[...])
            let call = statement.compound == nil ? reader.call(statement.head) : nil
            if let call, let block = statement.block, ["for_lane", "for_platform"].contains(call.name),
               let name = call.positional.first?.text {
                read(block.body, reader: reader, lane: call.name == "for_lane" ? name : lane,
                     platform: call.name == "for_platform" ? name : platform)
            } else if statement.block == nil, let call, call.keywords.isEmpty, call.positional.count == 1, call.condition == nil {
                entries.append(Entry(name: call.name, value: call.positional[0], text: text, line: statement.line, lane: lane, platform: platform))
            } else {
                skipped.append(Entry(name: "", value: .nil, text: text, line: statement.line))
            }
        }
    }

    /// A setting's value as fastlane sees it while running `lane` on `platform`: a `for_lane`
    /// setting first, then a `for_platform` one, then the file's own.
    public func value(_ name: String, lane: String? = nil, platform: String? = nil) -> RubyValue? {
        let candidates = entries.filter { $0.name == name }
        return candidates.last(where: { $0.lane != nil && $0.lane == lane && ($0.platform == nil || $0.platform == platform) })?.value
            ?? candidates.last(where: { $0.lane == nil && $0.platform != nil && $0.platform == platform })?.value
            ?? candidates.first(where: { $0.lane == nil && $0.platform == nil })?.value
    }
}
