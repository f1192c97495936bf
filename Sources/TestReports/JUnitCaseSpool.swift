import Basics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Test cases kept in two temporary files instead of memory, for logs with any number of tests
/// (`slipway xcode log`): memory holds one entry per JUnit class, not per test. The files are
/// unlinked as soon as they are made, so they go with the process however it ends.
///
/// - `records`: each case's fields, appended (a case changed later is appended again);
/// - `slots`: one fixed-size entry per case in first-seen order: where its latest record is,
///   its outcome and duration (what the JUnit headers count), and the next case of its class.
///
/// `writeJUnit` streams the same bytes `JUnitXML.render` makes of `cases()`. A read or write
/// error is kept (`failure`) and the spool stops recording: callers report it.
public final class JUnitCaseSpool: @unchecked Sendable {
    private struct ClassChain {
        var name: String
        var first: Int
        var last: Int
    }

    private let lock = NSLock()
    private let records: Int32
    private let slots: Int32
    private var recordsEnd: Int64 = 0
    private var slotCount = 0
    private var classes: [ClassChain] = []
    private var classIndex: [String: Int] = [:]
    private var failed: String?

    private static let slotSize = 48
    private static let none: Int64 = -1

    /// Makes the two files in `directory` (default: TMPDIR, else /tmp).
    /// - Throws: `CannotCreate` when they cannot be made.
    public init(directory: String? = nil) throws {
        let folder = directory ?? ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        records = try Self.makeUnlinked(in: folder)
        do {
            slots = try Self.makeUnlinked(in: folder)
        } catch {
            close(records)
            throw error
        }
    }

    deinit {
        close(records)
        close(slots)
    }

    private static func makeUnlinked(in folder: String) throws -> Int32 {
        var template = Array("\(folder)/slipway-junit-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw CannotCreate(folder: folder, reason: String(cString: strerror(errno))) }
        unlink(String(cString: template))
        return fd
    }

    /// The first read or write error, when one happened (the spool is then incomplete).
    public var failure: String? { lock.withLock { failed } }

    /// The number of cases.
    public var count: Int { lock.withLock { slotCount } }

    /// Adds a case at the end; returns its number.
    @discardableResult
    public func append(_ test: JUnitTestCase) -> Int {
        lock.withLock {
            let number = slotCount
            guard failed == nil, let (offset, length) = writeRecord(test) else { return number }
            if let index = classIndex[test.className] {
                // Link the class's last case to this one.
                let link = withUnsafeBytes(of: Int64(number).littleEndian) { Array($0) }
                guard pwriteAll(slots, link, at: Int64(classes[index].last * Self.slotSize)) else {
                    return number
                }
                classes[index].last = number
            } else {
                classIndex[test.className] = classes.count
                classes.append(ClassChain(name: test.className, first: number, last: number))
            }
            guard pwriteAll(slots, Self.slot(next: Self.none, offset: offset, length: length, test: test), at: Int64(number * Self.slotSize)) else {
                return number
            }
            slotCount += 1
            return number
        }
    }

    /// The case numbered `number` (nil when it cannot be read).
    public func testCase(_ number: Int) -> JUnitTestCase? {
        lock.withLock { readCase(number) }
    }

    /// Replaces case `number` (its place and class stay).
    public func replace(_ number: Int, with test: JUnitTestCase) {
        lock.withLock {
            guard failed == nil, number < slotCount, let slot = readSlot(number) else { return }
            guard let (offset, length) = writeRecord(test) else { return }
            _ = pwriteAll(slots, Self.slot(next: slot.next, offset: offset, length: length, test: test), at: Int64(number * Self.slotSize))
        }
    }

    /// The number of the last case whose class and name are these (a scan from the end).
    public func lastCase(className: String, name: String) -> Int? {
        lock.withLock {
            var number = slotCount - 1
            while number >= 0 {
                if let test = readCase(number), test.className == className, test.name == name { return number }
                number -= 1
            }
            return nil
        }
    }

    /// Every case, in order (memory grows with them: for small reports and tests).
    public func cases() -> [JUnitTestCase] {
        lock.withLock { (0..<slotCount).compactMap { readCase($0) } }
    }

    /// Writes the JUnit report of the cases to `path` as `JUnitXML.render(cases(), name:)` would,
    /// a suite at a time, through a temporary file beside it renamed into place (the permissions
    /// of a file replaced are kept, 0o644 for a new one).
    /// - Throws: `FileSystemError` for the report file; `JUnitCaseSpool.Failure` when the spool
    ///   itself cannot be read.
    public func writeJUnit(name: String, to path: String) throws {
        try lock.withLock {
            if let failed { throw Failure(reason: failed) }
            let directory = (path as NSString).deletingLastPathComponent
            let base = (path as NSString).lastPathComponent
            var template = Array("\(directory.isEmpty ? "." : directory)/.\(base).slipway-XXXXXX".utf8CString)
            let fd = mkstemp(&template)
            guard fd >= 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
            let temporary = String(cString: template)
            var renamed = false
            defer { if !renamed { unlink(temporary) } }
            do {
                try writeDocument(name: name, to: fd, path: path)
                var existing = stat()
                fchmod(fd, stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)
                guard fsync(fd) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
                close(fd)
            } catch {
                close(fd)
                throw error
            }
            guard rename(temporary, path) == 0 else { throw FileSystemError.from(errno: errno, path: path, operation: "write") }
            renamed = true
        }
    }

    /// The temporary files cannot be made in `folder`.
    public struct CannotCreate: Error {
        public var folder: String
        public var reason: String
    }

    /// The spool could not be read back or was left incomplete.
    public struct Failure: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "the test results kept in a temporary file could not be read back: \(reason)" }
    }

    // MARK: - Writing the document

    private func writeDocument(name: String, to fd: Int32, path: String) throws {
        var failures = 0, skipped = 0
        var total = 0.0
        for number in 0..<slotCount {
            let slot = try requireSlot(number)
            if slot.kind == 1 { failures += 1 } else if slot.kind == 2 { skipped += 1 }
            total += slot.duration ?? 0
        }
        var text = JUnitXML.documentHead(name: name, tests: slotCount, failures: failures, skipped: skipped, time: total)
        for chain in classes {
            var members = 0, memberFailures = 0, memberSkipped = 0
            var time = 0.0
            var number = Int64(chain.first)
            while number != Self.none {
                let slot = try requireSlot(Int(number))
                members += 1
                if slot.kind == 1 { memberFailures += 1 } else if slot.kind == 2 { memberSkipped += 1 }
                time += slot.duration ?? 0
                number = slot.next
            }
            text += JUnitXML.suiteHead(name: chain.name, tests: members, failures: memberFailures, skipped: memberSkipped, time: time)
            number = Int64(chain.first)
            while number != Self.none {
                guard let test = readCase(Int(number)), let slot = readSlot(Int(number)) else { throw Failure(reason: failed ?? "a short read") }
                text += JUnitXML.element(test)
                number = slot.next
                if text.utf8.count >= 1 << 16 {
                    try writeText(text, to: fd, path: path)
                    text.removeAll(keepingCapacity: true)
                }
            }
            text += JUnitXML.suiteTail
        }
        text += JUnitXML.documentTail
        try writeText(text, to: fd, path: path)
    }

    private func writeText(_ text: String, to fd: Int32, path: String) throws {
        var text = text
        try text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileSystemError.from(errno: errno, path: path, operation: "write")
                }
                offset += written
            }
        }
    }

    // MARK: - Slots and records

    private struct Slot {
        var next: Int64
        var offset: Int64
        var length: Int64
        var duration: Double?
        /// 0 passed, 1 failed, 2 skipped, 3 flaky.
        var kind: UInt8
    }

    private static func kind(_ outcome: JUnitTestCase.Outcome) -> UInt8 {
        switch outcome {
        case .passed: 0
        case .failed: 1
        case .skipped: 2
        case .flaky: 3
        }
    }

    private static func slot(next: Int64, offset: Int64, length: Int64, test: JUnitTestCase) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(slotSize)
        for value in [next, offset, length] { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        withUnsafeBytes(of: (test.duration ?? 0).bitPattern.littleEndian) { bytes += $0 }
        bytes += [test.duration == nil ? 0 : 1, kind(test.outcome)]
        bytes += [UInt8](repeating: 0, count: slotSize - bytes.count)
        return bytes
    }

    private func readSlot(_ number: Int) -> Slot? {
        guard number >= 0, number < slotCount else { return nil }
        var bytes = [UInt8](repeating: 0, count: Self.slotSize)
        guard preadAll(slots, &bytes, at: Int64(number * Self.slotSize)) else { return nil }
        func int(_ at: Int) -> Int64 { bytes[at..<(at + 8)].reversed().reduce(0) { $0 << 8 | Int64($1) } }
        let duration = Double(bitPattern: UInt64(bitPattern: int(24)))
        return Slot(next: int(0), offset: int(8), length: int(16), duration: bytes[32] == 1 ? duration : nil, kind: bytes[33])
    }

    private func requireSlot(_ number: Int) throws -> Slot {
        guard let slot = readSlot(number) else { throw Failure(reason: failed ?? "a short read") }
        return slot
    }

    private func readCase(_ number: Int) -> JUnitTestCase? {
        guard let slot = readSlot(number) else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(slot.length))
        guard preadAll(records, &bytes, at: slot.offset) else { return nil }
        return Self.decode(bytes)
    }

    private func writeRecord(_ test: JUnitTestCase) -> (Int64, Int64)? {
        let bytes = Self.encode(test)
        let offset = recordsEnd
        guard pwriteAll(records, bytes, at: offset) else { return nil }
        recordsEnd += Int64(bytes.count)
        return (offset, Int64(bytes.count))
    }

    private func pwriteAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64) -> Bool {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            if written < 0 {
                if errno == EINTR { continue }
                failed = failed ?? String(cString: strerror(errno))
                return false
            }
            done += written
        }
        return true
    }

    private func preadAll(_ fd: Int32, _ bytes: inout [UInt8], at offset: Int64) -> Bool {
        var done = 0
        let count = bytes.count
        while done < count {
            let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if read < 0 {
                if errno == EINTR { continue }
                failed = failed ?? String(cString: strerror(errno))
                return false
            }
            if read == 0 {
                failed = failed ?? "the file ended early"
                return false
            }
            done += read
        }
        return true
    }

    // MARK: - Record encoding

    /// Fields as length-prefixed UTF-8: class, name, outcome (tag and its texts), file, line, duration.
    static func encode(_ test: JUnitTestCase) -> [UInt8] {
        var bytes: [UInt8] = []
        func put(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func put(_ text: String?) {
            guard let text else { put(UInt64.max); return }
            put(UInt64(text.utf8.count))
            bytes += text.utf8
        }
        put(test.className)
        put(test.name)
        switch test.outcome {
        case .passed: bytes.append(0)
        case .failed(let message, let details): bytes.append(1); put(message); put(details)
        case .skipped(let message): bytes.append(2); put(message)
        case .flaky(let runs, let details): bytes.append(3); put(UInt64(bitPattern: Int64(runs))); put(details)
        }
        put(test.file)
        put(test.line.map { UInt64(bitPattern: Int64($0)) } ?? UInt64.max)
        bytes.append(test.duration == nil ? 0 : 1)
        put((test.duration ?? 0).bitPattern)
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> JUnitTestCase? {
        var at = 0
        func number() -> UInt64? {
            guard at + 8 <= bytes.count else { return nil }
            defer { at += 8 }
            return bytes[at..<(at + 8)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        func text() -> String?? {
            guard let length = number() else { return nil }
            if length == UInt64.max { return .some(nil) }
            guard length <= UInt64(bytes.count - at) else { return nil }
            defer { at += Int(length) }
            return .some(String(decoding: bytes[at..<(at + Int(length))], as: UTF8.self))
        }
        func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }
        guard let className = text() ?? nil, let name = text() ?? nil, let tag = byte() else { return nil }
        let outcome: JUnitTestCase.Outcome
        switch tag {
        case 0: outcome = .passed
        case 1:
            guard let message = text() ?? nil, let details = text() ?? nil else { return nil }
            outcome = .failed(message: message, details: details)
        case 2:
            guard let message = text() else { return nil }
            outcome = .skipped(message: message)
        case 3:
            guard let runs = number(), let details = text() ?? nil else { return nil }
            outcome = .flaky(failedRuns: Int(Int64(bitPattern: runs)), details: details)
        default: return nil
        }
        guard let file = text(), let line = number(), let hasDuration = byte(), let duration = number() else { return nil }
        return JUnitTestCase(className: className, name: name,
                             duration: hasDuration == 1 ? Double(bitPattern: duration) : nil, outcome: outcome, file: file,
                             line: line == UInt64.max ? nil : Int(Int64(bitPattern: line)))
    }
}
