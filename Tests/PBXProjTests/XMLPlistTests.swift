import Foundation
import Testing
import TestSupport
import TestThreads
@testable import PBXProj

/// XML property lists read into the same model and are written in Xcode's ASCII form.
@Suite("XML property lists", .dedicatedThreads)
struct XMLPlistTests {
    @Test("the corpus's XML projects read, and are written as canonical ASCII")
    func corpusXML() throws {
        guard let directory = Corpus.pbxprojDirectory else {
            print("SKIPPED corpusXML: the pbxproj corpus is absent")
            return
        }
        let files = PBXProjCorpusManifest.oddFiles(in: directory).filter { $0.contains("-XML") }
        #expect(files.count == 3)
        for path in files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let project = try PBXProject(bytes: bytes, projectName: "Sample")
            #expect(project.sourceFormat == .xml)
            let ascii = try project.serialized()
            #expect(ascii.starts(with: Array("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n".utf8)))
            let reread = try PBXProject(bytes: ascii, projectName: "Sample")
            #expect(reread.sourceFormat == .openStep)
            #expect(try reread.canonicalSerialized() == ascii, "\(path)")
            #expect(reread.objectIDs.count == project.objectIDs.count)
            #expect(try !reread.groupTree().nodes.isEmpty)
            #expect(reread.validate().filter { $0.severity == .error }.isEmpty)
        }
    }

    @Test("an XML project reads into the same objects as its ASCII form")
    func sameModel() throws {
        let ascii = try PBXProject(bytes: Array(SampleProject.text.utf8), projectName: "Sample")
        let xml = try PBXProject(bytes: Array(XMLFixture.xml(for: ascii).utf8), projectName: "Sample")
        #expect(xml.sourceFormat == .xml)
        for id in ascii.objectIDs {
            let left = try #require(ascii.object(id)), right = try #require(xml.object(id))
            #expect(Set(left.properties.entries.map(\.key)) == Set(right.properties.entries.map(\.key)))
            for entry in left.properties { #expect(right[entry.key] == entry.value, "\(id) \(entry.key)") }
        }
        #expect(try xml.serialized() == Array(SampleProject.text.utf8))
    }

    @Test("entities, CDATA, booleans, numbers and data")
    func scalars() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>a</key><string>&lt;group&gt; &amp; &#233;&#x41;</string>
            <key>b</key><string><![CDATA[x<y]]></string>
            <key>c</key><true/><key>d</key><false/>
            <key>e</key><integer>42</integer><key>f</key><data>AAEC</data>
            <key>g</key><array/><key>h</key><dict/><key>i</key><string/>
            </dict></plist>
            """
        let root = try XMLPropertyList.parse(Array(text.utf8))
        let dictionary = try #require(root.dictionary)
        #expect(dictionary["a"] == "<group> & éA")
        #expect(dictionary["b"] == "x<y")
        #expect(dictionary["c"] == "YES")
        #expect(dictionary["d"] == "NO")
        #expect(dictionary["e"] == "42")
        #expect(dictionary["f"] == .data([0, 1, 2]))
        #expect(dictionary["g"] == .array([]))
        #expect(dictionary["h"] == .dictionary(PBXDictionary()))
        #expect(dictionary["i"] == "")
    }

    @Test("broken XML names the place", arguments: [
        ("<plist><dict><key>a</key></dict></plist>", "XML property list: key 'a' has no value"),
        ("<plist><dict><key>a</key><string>x</dict></plist>", "XML property list: unexpected element inside '<string>'"),
        ("<plist><dict><key>a</key><string>x</string>", "XML property list: the document ends inside a container; the file looks truncated"),
        ("<plist><frob/></plist>", "XML property list: unknown element '<frob>'"),
    ])
    func brokenXML(text: String, message: String) throws {
        do {
            _ = try PBXProject(bytes: Array(text.utf8), projectName: "X")
            Issue.record("no error for \(text)")
        } catch let error as PBXProjError {
            #expect(error.message == message)
            #expect(error.location != nil)
        }
    }
}

/// Renders a project's objects as an XML property list, for comparing the two readers.
enum XMLFixture {
    static func xml(for project: PBXProject) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        for key in ["archiveVersion", "classes", "objectVersion"] {
            if let value = project.rootValue(key) { out += "<key>\(key)</key>" + render(value) }
        }
        out += "<key>objects</key><dict>\n"
        for id in project.objectIDs {
            guard let object = project.object(id) else { continue }
            out += "<key>\(id)</key>" + render(.dictionary(object.properties)) + "\n"
        }
        out += "</dict>\n<key>rootObject</key><string>\(project.rootObjectID?.rawValue ?? "")</string>\n</dict>\n</plist>\n"
        return out
    }

    private static func render(_ value: PBXValue) -> String {
        switch value {
        case .string(let string):
            let escaped = string.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            return "<string>\(escaped)</string>"
        case .data(let bytes):
            return "<data>\(Data(bytes).base64EncodedString())</data>"
        case .array(let elements):
            return "<array>" + elements.map(render).joined() + "</array>"
        case .dictionary(let dictionary):
            return "<dict>" + dictionary.map { "<key>\($0.key)</key>" + render($0.value) }.joined() + "</dict>"
        }
    }
}
