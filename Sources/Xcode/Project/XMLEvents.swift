import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The start and end tags of a small XML file (schemes, workspace data), read with XMLParser;
/// text is not needed by these formats and is dropped.
struct XMLEvent: Sendable, Hashable {
    var isStart: Bool
    var name: String
    var attributes: [String: String]
}

enum XMLEvents {
    /// The document's tags in order.
    ///
    /// - Throws: `XcodeProjectError.malformedXML` with the parser's line and column.
    static func read(_ bytes: [UInt8], path: String) throws -> [XMLEvent] {
        let collector = Collector()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = collector
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        if !parser.parse() || collector.failure != nil {
            let code = (parser.parserError as NSError?)?.code ?? collector.failure ?? 0
            throw XcodeProjectError.malformedXML(
                path: path, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), reason: reason(code))
        }
        return collector.events
    }

    /// libxml2's / NSXMLParser's codes for the mistakes hand edits and merges make.
    private static func reason(_ code: Int) -> String {
        switch code {
        case 4, 5: return "the document is empty or ends too early"
        case 9: return "an invalid character"
        case 26, 27: return "an entity that is not defined"
        case 38, 39, 40, 41, 65: return "an attribute is malformed (a missing quote or '=')"
        case 73, 76, 77: return "a tag is not closed, or closed by the wrong end tag"
        case 111: return "an unescaped '<' or '&'"
        default: return "the parser stopped (error \(code))"
        }
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var events: [XMLEvent] = []
        var failure: Int?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            events.append(XMLEvent(isStart: true, name: elementName, attributes: attributeDict))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            events.append(XMLEvent(isStart: false, name: elementName, attributes: [:]))
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            failure = failure ?? (parseError as NSError).code
        }
    }
}
