import Testing
import TestThreads
@testable import PBXProj

/// Xcode's formatting rules, one at a time.
@Suite("Canonical format", .dedicatedThreads)
struct CanonicalFormatTests {
    private func canonical(_ string: String) -> String {
        var out: [UInt8] = []
        StringEscapes.appendCanonical(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("bare only for [A-Za-z0-9_$./] without // or ___", arguments: [
        ("Sources/main.swift", "Sources/main.swift"), ("$(SRCROOT)", "\"$(SRCROOT)\""), ("$SRCROOT", "$SRCROOT"),
        ("", "\"\""), ("a b", "\"a b\""), ("gnu++20", "\"gnu++20\""), ("-Onone", "\"-Onone\""),
        ("com.apple.product-type.app", "\"com.apple.product-type.app\""), ("a//b", "\"a//b\""), ("a/b/c", "a/b/c"),
        ("___VAR___", "\"___VAR___\""), ("__a", "__a"), ("<group>", "\"<group>\""), ("émoji", "\"émoji\""),
        ("x:y", "\"x:y\""), ("../x", "../x"),
    ])
    func quoting(input: String, expected: String) {
        #expect(canonical(input) == expected)
    }

    @Test("escapes: backslash, quote, newline and tab; other control characters as \\U")
    func escapes() {
        #expect(canonical("say \"hi\"\\n") == #""say \"hi\"\\n""#)
        #expect(canonical("line1\nline2\tend") == #""line1\nline2\tend""#)
        #expect(canonical("bell\u{07}") == #""bell\U0007""#)
    }

    @Test("escapes read back to the same text")
    func escapesRoundTrip() throws {
        let values = ["a\"b", "c\\d", "e\nf", "g\th", "\u{01}", "ünï", "🍷 wine"]
        for value in values {
            let text = "// !$*UTF8*$!\n{objects = {}; v = \(canonical(value)); }\n"
            let tree = try PropertyListParser.parse(Array(text.utf8))
            #expect(tree.lookup("v", in: 0).map { tree.string($0) } == value)
        }
        let tree = try PropertyListParser.parse(Array(#"{objects = {}; a = "\U00e9\101\u00FC\UD83C\UDF77"; }"#.utf8))
        #expect(tree.lookup("a", in: 0).map { tree.string($0) } == "éAü🍷")
    }

    @Test("reading accepts single quotes, // comments and bare + - : characters")
    func lenientReading() throws {
        let text = "// header\n{ objects = {}; // note\n a = 'x y'; b = -1; c = a:b+c; }"
        let tree = try PropertyListParser.parse(Array(text.utf8))
        #expect(tree.lookup("a", in: 0).map { tree.string($0) } == "x y")
        #expect(tree.lookup("b", in: 0).map { tree.string($0) } == "-1")
        #expect(tree.lookup("c", in: 0).map { tree.string($0) } == "a:b+c")
    }

    @Test("a shuffled project is written in Xcode's order and layout")
    func reordering() throws {
        let shuffled = """
            {
            rootObject = P;
            objects = {
            G = {sourceTree = "<group>"; children = (F, ); isa = PBXGroup; };
            P = {targets = (); mainGroup = G; isa = PBXProject; };
            F = {path = "a.swift"; isa = PBXFileReference; sourceTree = "<group>"; };
            };
            objectVersion = 77; archiveVersion = 1; classes = {};
            }
            """
        let project = try PBXProject(bytes: Array(shuffled.utf8), projectName: "Demo")
        let expected = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 77;
            \tobjects = {

            /* Begin PBXFileReference section */
            \t\tF /* a.swift */ = {isa = PBXFileReference; path = a.swift; sourceTree = "<group>"; };
            /* End PBXFileReference section */

            /* Begin PBXGroup section */
            \t\tG = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \t\t\t\tF /* a.swift */,
            \t\t\t);
            \t\t\tsourceTree = "<group>";
            \t\t};
            /* End PBXGroup section */

            /* Begin PBXProject section */
            \t\tP /* Project object */ = {
            \t\t\tisa = PBXProject;
            \t\t\tmainGroup = G;
            \t\t\ttargets = (
            \t\t\t);
            \t\t};
            /* End PBXProject section */
            \t};
            \trootObject = P /* Project object */;
            }

            """
        #expect(String(decoding: try project.canonicalSerialized(), as: UTF8.self) == expected)
        #expect(!project.isCanonical)
    }

    private func comments(_ objects: String, version: Int = 77, dialect: CommentDialect? = nil) throws -> String {
        let text = "{archiveVersion = 1; objectVersion = \(version); objects = {\(objects)}; rootObject = P; }"
        let project = try PBXProject(bytes: Array(text.utf8), projectName: "Demo")
        return String(decoding: try project.canonicalSerialized(dialect: dialect), as: UTF8.self)
    }

    @Test("derived comments: build files, phases, lists, packages")
    func derivedComments() throws {
        let text = try comments("""
            P = {isa = PBXProject; buildConfigurationList = L; packageReferences = (R, K); targets = (T); };
            L = {isa = XCConfigurationList; buildConfigurations = (C); };
            C = {isa = XCBuildConfiguration; name = Debug; };
            T = {isa = PBXNativeTarget; name = "My App"; buildConfigurationList = M; buildPhases = (S); };
            M = {isa = XCConfigurationList; buildConfigurations = (); };
            S = {isa = PBXSourcesBuildPhase; files = (B, N, D); };
            B = {isa = PBXBuildFile; fileRef = F; };
            N = {isa = PBXBuildFile; };
            D = {isa = PBXBuildFile; productRef = Q; };
            F = {isa = PBXFileReference; name = "Main File"; path = main.swift; };
            R = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/a/swift-thing.git"; };
            K = {isa = XCLocalSwiftPackageReference; relativePath = ../Local; };
            Q = {isa = XCSwiftPackageProductDependency; productName = "plugin:Lint"; package = R; };
            """)
        #expect(text.contains("B /* Main File in Sources */ = {isa = PBXBuildFile; fileRef = F /* Main File */; };"))
        #expect(text.contains("N /* (null) in Sources */ = {isa = PBXBuildFile; };"))
        #expect(text.contains("D /* Lint in Sources */ = {isa = PBXBuildFile; productRef = Q /* Lint */; };"))
        #expect(text.contains("L /* Build configuration list for PBXProject \"Demo\" */ = {"))
        #expect(text.contains("M /* Build configuration list for PBXNativeTarget \"My App\" */ = {"))
        #expect(text.contains("R /* XCRemoteSwiftPackageReference \"swift-thing\" */,"))
        #expect(text.contains("K /* XCLocalSwiftPackageReference \"../Local\" */,"))
        #expect(text.contains("C /* Debug */ = {"))
        #expect(text.contains("S /* Sources */ = {"))
    }

    @Test("Xcode 26 names configurations and exception sets after their owners")
    func xcode26Comments() throws {
        let objects = """
            P = {isa = PBXProject; buildConfigurationList = L; targets = (T); };
            L = {isa = XCConfigurationList; buildConfigurations = (C); };
            C = {isa = XCBuildConfiguration; name = Debug; };
            T = {isa = PBXNativeTarget; name = App; buildPhases = (S); };
            S = {isa = PBXCopyFilesBuildPhase; name = "Embed"; files = (); };
            G = {isa = PBXFileSystemSynchronizedRootGroup; path = Sources; exceptions = (E, X); };
            E = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; target = T; };
            X = {isa = PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet; buildPhase = S; };
            """
        let modern = try comments(objects, version: 90)
        #expect(modern.contains("C /* Debug configuration for PBXProject \"Demo\" */ = {"))
        #expect(modern.contains("E /* Exceptions for \"Sources\" folder in \"App\" target */ = {"))
        #expect(modern.contains("X /* Exceptions for \"Sources\" folder in \"Embed\" phase from \"App\" target */ = {"))
        let classic = try comments(objects, version: 77)
        #expect(classic.contains("C /* Debug */ = {"))
        #expect(classic.contains("E /* PBXFileSystemSynchronizedBuildFileExceptionSet */ = {"))
        #expect(try comments(objects, version: 77, dialect: .xcode26).contains("C /* Debug configuration for PBXProject \"Demo\" */"))
    }

    @Test("layout: one-line build files and file references; Xcode 16 beta one-line synchronized groups")
    func layout() throws {
        let objects = "G = {isa = PBXFileSystemSynchronizedRootGroup; explicitFileTypes = {}; explicitFolders = (); path = S; };"
        #expect(try comments(objects, version: 73).contains("G /* S */ = {isa = PBXFileSystemSynchronizedRootGroup; explicitFileTypes = {}; explicitFolders = (); path = S; };"))
        #expect(try comments(objects, version: 77).contains("G /* S */ = {\n\t\t\tisa = PBXFileSystemSynchronizedRootGroup;\n\t\t\texplicitFileTypes = {\n\t\t\t};"))
    }

    @Test("no comments under attributes, buildSettings or remoteGlobalIDString; script lines always quoted")
    func commentContexts() throws {
        let text = try comments("""
            P = {isa = PBXProject; attributes = {TargetAttributes = {T = {TestTargetID = T; }; }; }; };
            T = {isa = PBXNativeTarget; name = App; };
            X = {isa = PBXContainerItemProxy; remoteGlobalIDString = T; containerPortal = P; };
            C = {isa = XCBuildConfiguration; name = D; buildSettings = {A = T; }; };
            S = {isa = PBXShellScriptBuildPhase; shellScript = (run, "", ); };
            """)
        #expect(text.contains("\t\t\t\t\tT = {\n\t\t\t\t\t\tTestTargetID = T;\n"))
        #expect(text.contains("remoteGlobalIDString = T;\n"))
        #expect(text.contains("containerPortal = P /* Project object */;\n"))
        #expect(text.contains("\t\t\t\tA = T;\n"))
        #expect(text.contains("shellScript = (\n\t\t\t\t\"run\",\n\t\t\t\t\"\",\n\t\t\t);"))
    }

    @Test("a name containing */ cannot end its comment early")
    func commentTerminator() throws {
        let text = try comments("G = {isa = PBXGroup; name = \"a*/b\"; children = (); }; X = {isa = \"Odd*/Isa\"; };")
        #expect(text.contains("G /* a* /b */ = {"))
        #expect(text.contains("/* Begin Odd* /Isa section */"))
        #expect(throws: Never.self) { try PBXProject(bytes: Array(text.utf8), projectName: "Demo") }
    }

    @Test("an object claimed twice gets the same comment whatever the file order")
    func sharedChild() throws {
        let phases = ["S = {isa = PBXSourcesBuildPhase; files = (B); };", "R = {isa = PBXResourcesBuildPhase; files = (B); };"]
        let rest = "B = {isa = PBXBuildFile; fileRef = F; }; F = {isa = PBXFileReference; path = x; };"
        let first = try comments(phases[0] + phases[1] + rest)
        let second = try comments(phases[1] + phases[0] + rest)
        #expect(first == second)
        #expect(first.contains("B /* x in Resources */"))
        let again = try PBXProject(bytes: Array(first.utf8), projectName: "Demo")
        #expect(String(decoding: try again.canonicalSerialized(), as: UTF8.self) == first)
    }

    @Test("a list or dictionary where a name belongs gives no comment")
    func nonStringName() throws {
        let text = try comments("F = {isa = PBXFileReference; path = {a = b; }; name = (x); };")
        #expect(text.contains("\t\tF = {isa = PBXFileReference;"))
    }
}
