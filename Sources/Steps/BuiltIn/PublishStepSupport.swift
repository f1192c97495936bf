import Basics
import Foundation
import Publish

/// What the publishing steps share: pattern expansion relative to the working directory,
/// display paths for outputs, and progress reports that do not flood the event stream.
enum PublishStepSupport {
    /// The files (and, when `includeDirectories`, folders) `patterns` match, sorted, by the
    /// project's one glob (docs/patterns.md): patterns relative to the working directory, nothing
    /// from outside the project, no folder link followed (each one a wildcard passed is noted).
    /// - Throws: `PublishError.noMatch` naming the first pattern that matches nothing,
    ///   `PublishError.notAFile`, or another `ProjectGlobError`.
    static func files(_ patterns: [String], in context: StepContext, includeDirectories: Bool = false) throws -> [ProjectGlob.Match] {
        let expansion: ProjectGlob.Expansion
        do {
            expansion = try glob(context).expand(patterns, in: context.workingDirectory, includeDirectories: includeDirectories)
        } catch ProjectGlobError.noMatch(let pattern) {
            throw PublishError.noMatch(pattern: pattern)
        } catch ProjectGlobError.notAFile(let path) {
            throw PublishError.notAFile(path: path)
        }
        for link in expansion.skippedFolderLinks {
            context.events.log(.info, "skipped '\(link)': a symbolic link to a folder, which patterns never follow")
        }
        return expansion.matches
    }

    /// The project's glob for this step.
    static func glob(_ context: StepContext) -> ProjectGlob {
        ProjectGlob(fileSystem: context.fileSystem, root: context.projectDirectory)
    }

    /// `path` relative to the working directory when inside it, else absolute: what outputs hold.
    static func display(_ path: String, in context: StepContext) -> String {
        let base = context.workingDirectory.hasSuffix("/") ? context.workingDirectory : context.workingDirectory + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    /// True for the files signing makes, which a broad pattern such as `dist/*` would otherwise
    /// pick up on a second run.
    static func isSignature(_ path: String) -> Bool {
        path.hasSuffix(".sig") || path.hasSuffix(".minisig") || path.hasSuffix(".asc")
    }

    /// A throttled progress reporter (`ProgressThrottle`): per file, one event per 5% and per
    /// second, whichever comes later, and its end once.
    static func progressReporter(_ events: any StepEventSink, verb: String, now: @escaping @Sendable () -> Date) -> UploadProgressHandler {
        let throttle = ProgressThrottle(now: now)
        return { file, progress in
            guard let fraction = progress.fraction, let shown = throttle.admit(file.name, fraction: fraction) else { return }
            events.progress(fraction: shown, message: "\(verb) \(file.name)")
        }
    }

    /// Byte sizes as lane files write them: `64MiB`, `16 MB`, `5242880`.
    static func byteSize(_ text: String, option: String) throws -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.prefix { $0.isNumber }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        let factors: [String: Int64] = ["": 1, "b": 1, "kb": 1000, "kib": 1 << 10, "k": 1 << 10, "mb": 1_000_000,
                                        "mib": 1 << 20, "m": 1 << 20, "gb": 1_000_000_000, "gib": 1 << 30, "g": 1 << 30]
        guard let number = Int64(digits), let factor = factors[unit] else {
            throw StepError.invalidOption(name: option, problem: "'\(text)' is not a size (try 64MiB, 16MB or a number of bytes)")
        }
        return number * factor
    }
}

