// libFuzzer entry point for lane files (built by scripts/fuzz.sh lanes).
//
// Each input is a lane file. Besides "no crash, no hang, no unbounded memory" (libFuzzer's
// -rss_limit_mb), it checks the promises lane reading makes:
// - a file that does not read fails with diagnostics, each with a message and a place inside
//   the file (line 1 up to one past its last line);
// - a file that reads validates against the built-in steps without crashing, and every template
//   in it renders with every expression answered;
// - parsing is deterministic: the same text reads to the same lane twice.
import Basics
import Dispatch
import Lanes
import Steps

let registry = StepRegistry()

@_cdecl("LLVMFuzzerTestOneInput")
public func laneFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Lines as YAML counts them: LF, CR, CR LF, and (YAML 1.1, as libyaml reads) NEL, LS, PS.
    let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
    checkTemplates(text)
    let lane: Lane
    do {
        lane = try LaneFileParser.parse(text, name: "fuzz", file: "lanes/fuzz.yml")
    } catch let error as DiagnosticsError {
        check(error.diagnostics, lineCount: lineCount)
        return 0
    } catch {
        fatalError("fuzz: the lane parser threw something other than diagnostics: \(error)")
    }
    guard (try? LaneFileParser.parse(text, name: "fuzz", file: "lanes/fuzz.yml")) != nil else {
        fatalError("fuzz: the same text read once and failed the second time")
    }
    validate(lane, lineCount: lineCount)
    return 0
}

/// Diagnostics must say something, somewhere in the file.
func check(_ diagnostics: [Diagnostic], lineCount: Int) {
    guard !diagnostics.isEmpty else { fatalError("fuzz: an error with no diagnostics") }
    for diagnostic in diagnostics {
        if diagnostic.message.isEmpty { fatalError("fuzz: a diagnostic with no message") }
        if let location = diagnostic.location, location.line < 1 || location.line > lineCount + 1 || location.column < 1 {
            fatalError("fuzz: diagnostic '\(diagnostic.message)' placed at \(location), outside a \(lineCount)-line file")
        }
    }
}

/// Every line as a template and as a condition: parsing and rendering never crash.
func checkTemplates(_ text: String) {
    let location = SourceLocation(file: "lanes/fuzz.yml", line: 1, column: 1)
    for line in text.split(separator: "\n").prefix(64) {
        if case .success(let template) = Template.parse(String(line), at: location) {
            _ = template.render { _ in .string("x") }
            _ = template.references
        }
        if case .success(let condition) = Template.parseCondition(String(line), at: location) {
            _ = condition.render { _ in .bool(true) }
        }
    }
}

/// Validation is async; the fuzzer's thread is not one of the cooperative pool's, so it may wait.
func validate(_ lane: Lane, lineCount: Int) {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var problems: [Diagnostic]?
    Task.detached {
        do {
            _ = try await LaneValidator(registry: registry, platform: nil).validate(lane)
        } catch let error as DiagnosticsError {
            problems = error.diagnostics
        } catch {
            fatalError("fuzz: validation threw something other than diagnostics: \(error)")
        }
        done.signal()
    }
    done.wait()
    if let problems { check(problems, lineCount: lineCount) }
}

// SwiftPM links an executable target's `main` to `<Target>_main`; with `-parse-as-library` there
// is none, so this one hands the command line to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("LaneFuzz_main")
public func laneFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in laneFuzzTestOneInput(data, size) }
}
