import Basics

/// A string from a lane file with `${{ expression }}` parts, parsed once at load time.
public struct Template: Sendable, Hashable {
    /// A literal run of text or an expression.
    public enum Part: Sendable, Hashable {
        case literal(String)
        case expression(Expression, source: String)
    }

    /// The parts, in order.
    public var parts: [Part]
    /// The text as written.
    public var source: String
    /// Where the text starts in the lane file.
    public var location: SourceLocation
    /// The character offset of each expression's `${{` in `source`, in order.
    var expressionOffsets: [Int] = []

    /// True when the text has no expression.
    public var isLiteral: Bool { parts.allSatisfy { if case .literal = $0 { return true } else { return false } } }

    /// The single expression when the whole text is one `${{ ... }}` (its value keeps its type:
    /// a boolean input stays a boolean).
    public var soleExpression: Expression? {
        if parts.count == 1, case .expression(let expression, _) = parts[0] { return expression }
        return nil
    }

    /// Every reference, in order.
    public var references: [Reference] { locatedReferences.map(\.reference) }

    /// Every reference with where its expression starts: exact on a single-line value, the
    /// value's start otherwise (block scalars and escapes make columns unreliable).
    public var locatedReferences: [(reference: Reference, location: SourceLocation)] {
        var result: [(Reference, SourceLocation)] = []
        var index = 0
        let singleLine = !source.contains("\n")
        for part in parts {
            guard case .expression(let expression, _) = part else { continue }
            var location = self.location
            if singleLine, index < expressionOffsets.count { location.column += expressionOffsets[index] }
            index += 1
            result += expression.references.map { ($0, location) }
        }
        return result
    }

    /// Parses `text`. Syntax errors come back as a diagnostic pointing into the expression
    /// (the column is exact for single-line plain scalars, the scalar's start otherwise).
    public static func parse(_ text: String, at location: SourceLocation) -> Result<Template, DiagnosticsError> {
        var parts: [Part] = []
        var offsets: [Int] = []
        var rest = text[...]
        var consumed = 0
        while let open = rest.range(of: "${{") {
            if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
            let openOffset = consumed + rest.distance(from: rest.startIndex, to: open.lowerBound)
            guard let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) else {
                return .failure(DiagnosticsError([Diagnostic(at: shifted(location, by: openOffset),
                    "'${{' is not closed; end the expression with '}}'")]))
            }
            let source = String(rest[open.upperBound..<close.lowerBound])
            do {
                let expression = try ExpressionParser.parse(source)
                parts.append(.expression(expression, source: source.trimmingCharacters(in: .whitespaces)))
                offsets.append(openOffset)
            } catch {
                return .failure(DiagnosticsError([Diagnostic(at: shifted(location, by: openOffset + 3 + error.offset),
                    "\(error.message) in '${{\(source)}}'")]))
            }
            consumed += rest.distance(from: rest.startIndex, to: close.upperBound)
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return .success(Template(parts: parts, source: text, location: location, expressionOffsets: offsets))
    }

    /// Parses a bare condition (`if: success() && inputs.deploy`), without `${{ }}`.
    public static func parseCondition(_ text: String, at location: SourceLocation) -> Result<Template, DiagnosticsError> {
        if text.contains("${{") { return parse(text, at: location) }
        do {
            let expression = try ExpressionParser.parse(text)
            return .success(Template(parts: [.expression(expression, source: text)], source: text, location: location))
        } catch {
            return .failure(DiagnosticsError([Diagnostic(at: shifted(location, by: error.offset), "\(error.message) in '\(text)'")]))
        }
    }

    private static func shifted(_ location: SourceLocation, by offset: Int) -> SourceLocation {
        var result = location
        result.column += offset
        return result
    }

    /// The template's text with every expression evaluated.
    public func render(_ evaluate: (Expression) throws -> ExpressionValue) rethrows -> String {
        var result = ""
        for part in parts {
            switch part {
            case .literal(let text): result += text
            case .expression(let expression, _): result += try evaluate(expression).description
            }
        }
        return result
    }
}
