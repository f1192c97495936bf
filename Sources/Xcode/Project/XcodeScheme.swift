/// A scheme of a project or workspace: what it builds, tests and archives.
public struct XcodeScheme: Sendable, Hashable {
    /// Where the scheme comes from.
    public enum Origin: Sendable, Hashable {
        /// `xcshareddata/xcschemes` (checked in).
        case shared
        /// `xcuserdata/NAME.xcuserdatad/xcschemes` (one user's).
        case user(String)
        /// Made by Xcode for a target when the project has no scheme files.
        case autocreated
    }

    /// A target a scheme action refers to.
    public struct BuildableReference: Sendable, Hashable {
        /// The target's name.
        public var blueprintName: String
        /// The product's file name ("App.app").
        public var buildableName: String
        /// The target's object id in the pbxproj.
        public var blueprintIdentifier: String
        /// "container:App.xcodeproj".
        public var referencedContainer: String

        public init(blueprintName: String, buildableName: String, blueprintIdentifier: String, referencedContainer: String) {
            self.blueprintName = blueprintName
            self.buildableName = buildableName
            self.blueprintIdentifier = blueprintIdentifier
            self.referencedContainer = referencedContainer
        }
    }

    /// A test bundle in the test action.
    public struct Testable: Sendable, Hashable {
        public var reference: BuildableReference
        /// `skipped = "YES"`.
        public var isSkipped: Bool
    }

    /// A test plan of the test action.
    public struct TestPlan: Sendable, Hashable {
        /// "container:App.xctestplan".
        public var reference: String
        public var isDefault: Bool
        /// The plan's name, as `-testPlan` takes it ("App").
        public var name: String {
            let file = reference.split(separator: ":", maxSplits: 1).last.map(String.init) ?? reference
            let last = file.split(separator: "/").last.map(String.init) ?? file
            return last.hasSuffix(".xctestplan") ? String(last.dropLast(".xctestplan".count)) : last
        }
    }

    /// The scheme's name (its file name without `.xcscheme`).
    public var name: String
    /// The scheme file, or the project for an autocreated scheme.
    public var path: String
    public var origin: Origin
    /// The build action's targets.
    public var buildableReferences: [BuildableReference] = []
    public var testables: [Testable] = []
    public var testPlans: [TestPlan] = []
    public var testConfiguration: String?
    public var launchConfiguration: String?
    public var archiveConfiguration: String?

    public init(name: String, path: String, origin: Origin) {
        self.name = name
        self.path = path
        self.origin = origin
    }

    /// The default test plan, or the only one.
    public var defaultTestPlan: TestPlan? {
        testPlans.first(where: \.isDefault) ?? (testPlans.count == 1 ? testPlans.first : nil)
    }
}
