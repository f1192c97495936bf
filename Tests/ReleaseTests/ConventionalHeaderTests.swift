import Foundation
@testable import Release
import Testing
import TestThreads

/// `ConventionalCommit` reads a plain-ASCII first line byte by byte and anything else Character
/// by Character; the two readers must agree wherever both apply.
@Suite(.dedicatedThreads) struct ConventionalHeaderTests {
    @Test func byteAndCharacterReadersAgreeOnASCIIFirstLines() {
        let pieces = ["feat", "Fix", "perf", "x-y", "", "(", ")", "(ui)", "()", "!", ": ", ":", " ", "\t", "a", "1", ".", "\u{0B}", "BREAKING"]
        var state = SeededGenerator(state: 0x2545F4914F6CDD1D)
        var compared = 0
        var conventional = 0
        for _ in 0..<40_000 {
            var line = ""
            for _ in 0..<Int.random(in: 1...7, using: &state) { line += pieces[Int.random(in: 0..<pieces.count, using: &state)] }
            let bytes = Array(line.utf8)
            guard let colon = (0..<max(0, bytes.count - 1)).first(where: { bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: " ") }) else { continue }
            let byBytes = bytes.withUnsafeBufferPointer { ConventionalCommit.asciiHeader($0, colon: colon, end: bytes.count) }
            let byCharacters = ConventionalCommit.header(line, colon: line.utf8.index(line.startIndex, offsetBy: colon), end: line.endIndex)
            #expect(byBytes == byCharacters, "\(line.debugDescription)")
            compared += 1
            if byBytes != nil { conventional += 1 }
        }
        #expect(compared > 6_000)
        #expect(conventional > 500)
    }
}

/// A deterministic generator, so that a failure can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state ^ (state >> 29)
    }
}
