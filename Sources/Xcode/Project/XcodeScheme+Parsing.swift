extension XcodeScheme {
    /// Reads a `.xcscheme` file's XML.
    ///
    /// - Throws: `XcodeProjectError.malformedXML` naming `path`, line and column.
    public init(xml bytes: [UInt8], path: String, origin: Origin) throws {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        self.init(name: file.hasSuffix(".xcscheme") ? String(file.dropLast(".xcscheme".count)) : file, path: path, origin: origin)
        var action: String?
        var inBuildEntry = false
        var testable: Bool?
        for event in try XMLEvents.read(bytes, path: path) {
            guard event.isStart else {
                switch event.name {
                case "BuildAction", "TestAction", "LaunchAction", "ProfileAction", "AnalyzeAction", "ArchiveAction": action = nil
                case "BuildActionEntry": inBuildEntry = false
                case "TestableReference": testable = nil
                default: break
                }
                continue
            }
            let attributes = event.attributes
            switch event.name {
            case "BuildAction", "ProfileAction", "AnalyzeAction":
                action = event.name
            case "TestAction":
                action = event.name
                testConfiguration = attributes["buildConfiguration"]
            case "LaunchAction":
                action = event.name
                launchConfiguration = attributes["buildConfiguration"]
            case "ArchiveAction":
                action = event.name
                archiveConfiguration = attributes["buildConfiguration"]
            case "BuildActionEntry" where action == "BuildAction":
                inBuildEntry = true
            case "TestableReference" where action == "TestAction":
                testable = attributes["skipped"] == "YES"
            case "TestPlanReference" where action == "TestAction":
                if let reference = attributes["reference"] {
                    testPlans.append(TestPlan(reference: reference, isDefault: attributes["default"] == "YES"))
                }
            case "BuildableReference":
                let reference = BuildableReference(
                    blueprintName: attributes["BlueprintName"] ?? "", buildableName: attributes["BuildableName"] ?? "",
                    blueprintIdentifier: attributes["BlueprintIdentifier"] ?? "",
                    referencedContainer: attributes["ReferencedContainer"] ?? "")
                if inBuildEntry {
                    buildableReferences.append(reference)
                } else if let skipped = testable {
                    testables.append(Testable(reference: reference, isSkipped: skipped))
                }
            default:
                break
            }
        }
    }
}
