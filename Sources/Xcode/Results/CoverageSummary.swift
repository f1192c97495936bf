import Foundation

/// Line coverage per target, from `xcrun xccov view --report --json X.xcresult`.
public struct CoverageSummary: Sendable, Hashable, Codable {
    /// One target's (`App.app`, `Core.framework`) line coverage.
    public struct Target: Sendable, Hashable, Codable {
        public var name: String
        /// 0...1.
        public var lineCoverage: Double
        public var coveredLines: Int
        public var executableLines: Int

        public init(name: String, lineCoverage: Double, coveredLines: Int, executableLines: Int) {
            self.name = name
            self.lineCoverage = lineCoverage
            self.coveredLines = coveredLines
            self.executableLines = executableLines
        }

        enum CodingKeys: String, CodingKey { case name, lineCoverage, coveredLines, executableLines }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            coveredLines = try container.decodeIfPresent(Int.self, forKey: .coveredLines) ?? 0
            executableLines = try container.decodeIfPresent(Int.self, forKey: .executableLines) ?? 0
            lineCoverage = try container.decodeIfPresent(Double.self, forKey: .lineCoverage)
                ?? (executableLines == 0 ? 0 : Double(coveredLines) / Double(executableLines))
        }
    }

    /// All targets together, 0...1.
    public var lineCoverage: Double
    public var coveredLines: Int
    public var executableLines: Int
    public var targets: [Target]

    public init(lineCoverage: Double, coveredLines: Int, executableLines: Int, targets: [Target]) {
        self.lineCoverage = lineCoverage
        self.coveredLines = coveredLines
        self.executableLines = executableLines
        self.targets = targets
    }

    enum CodingKeys: String, CodingKey { case lineCoverage, coveredLines, executableLines, targets }

    /// Decodes xccov's report (its per-file and per-function detail is skipped).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        targets = try container.decodeIfPresent([Target].self, forKey: .targets) ?? []
        coveredLines = try container.decodeIfPresent(Int.self, forKey: .coveredLines) ?? targets.reduce(0) { $0 + $1.coveredLines }
        executableLines = try container.decodeIfPresent(Int.self, forKey: .executableLines) ?? targets.reduce(0) { $0 + $1.executableLines }
        lineCoverage = try container.decodeIfPresent(Double.self, forKey: .lineCoverage)
            ?? (executableLines == 0 ? 0 : Double(coveredLines) / Double(executableLines))
    }

    /// `Shop.app 81.2% (1234/1520 lines)`, one line per target.
    public var lines: [String] {
        targets.map { "\($0.name) " + String(format: "%.1f%%", $0.lineCoverage * 100) + " (\($0.coveredLines)/\($0.executableLines) lines)" }
    }
}
