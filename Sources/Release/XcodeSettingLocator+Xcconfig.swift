import Basics
import PBXProj

extension XcodeSettingLocator {
    /// The assignments of a configuration's base `.xcconfig` in the order Xcode reads them
    /// (each `#include` expanded in place); problems (outside the root, missing, cycle, too
    /// deep, too large) are recorded and that branch is left out.
    mutating func chain(of owned: OwnedConfiguration) -> [(file: String, assignment: XcconfigFile.Assignment)] {
        let configuration = owned.configuration
        if let cached = chains[configuration.id] {
            replay(cached)
            return cached.assignments
        }
        // Read once per configuration (and once per base file for all the configurations based
        // on it); what it finds is kept with it and said each time it is used (unless quiet).
        let entry = recording { locator in
            guard let path = locator.basePath(of: owned) else { return [] }
            let shared: Chain
            if let cached = locator.fileChains[path] {
                shared = cached
            } else {
                shared = locator.recording { locator in
                    var result: [(file: String, assignment: XcconfigFile.Assignment)] = []
                    locator.load(path, origin: Chain.origin + ": its base configuration '\(locator.paths.display(path))'", optional: false,
                                 stack: [], into: &result)
                    return result
                }
                locator.fileChains[path] = shared
            }
            locator.replay(shared, label: locator.label(owned))
            return shared.assignments
        }
        chains[configuration.id] = entry
        replay(entry)
        return entry.assignments
    }

    /// A base configuration's assignments and the problems and notes reading them gave.
    struct Chain {
        /// Stands for the configuration's label in a shared chain's messages.
        static let origin = "\u{1}configuration\u{1}"
        var assignments: [(file: String, assignment: XcconfigFile.Assignment)]
        var problems: [String]
        var notes: [String]
    }

    /// Runs `body` recording, whether quiet or not, the problems and notes it gives apart from
    /// those recorded before (which are kept as they were).
    private mutating func recording(_ body: (inout XcodeSettingLocator) -> [(file: String, assignment: XcconfigFile.Assignment)]) -> Chain {
        let saved = (problems, notes, quiet)
        (problems, notes, quiet) = ([], [], false)
        let assignments = body(&self)
        let entry = Chain(assignments: assignments, problems: problems, notes: notes)
        (problems, notes, quiet) = saved
        return entry
    }

    /// Records a chain's problems and notes (nothing while quiet), the configuration's label in
    /// place of `Chain.origin`.
    private mutating func replay(_ chain: Chain, label: String? = nil) {
        func filled(_ text: String) -> String { label.map { text.replacingOccurrences(of: Chain.origin, with: $0) } ?? text }
        for message in chain.problems { problem(filled(message)) }
        for message in chain.notes { note(filled(message)) }
    }

    /// The absolute path of the configuration's base `.xcconfig`, or nil (none, or a problem).
    private mutating func basePath(of owned: OwnedConfiguration) -> String? {
        let configuration = owned.configuration
        let resolved: ResolvedPath?
        do {
            if let reference = configuration.baseConfigurationReference {
                resolved = try project.resolvedPath(of: reference)
            } else if let anchor = configuration.baseConfigurationReferenceAnchor {
                resolved = try project.resolvedPath(of: anchor)?.appending(configuration.baseConfigurationReferenceRelativePath ?? "")
            } else {
                return nil
            }
        } catch {
            problem("'\(paths.display(file.pbxprojPath))': the base configuration of \(label(owned)) cannot be located: \(error.localizedDescription)")
            return nil
        }
        guard let resolved, let path = resolved.absolutePath(projectDirectory: file.projectDirectory) else {
            problem("'\(paths.display(file.pbxprojPath))': the base configuration of \(label(owned)) is '\(resolved?.description ?? "not in the group tree")', which slipway cannot locate; refer to the .xcconfig relative to its group or the project")
            return nil
        }
        return path
    }

    /// Appends the assignments of `path` (and of the files it includes) to `result`.
    private mutating func load(
        _ path: String, origin: String, optional: Bool, stack: [String],
        into result: inout [(file: String, assignment: XcconfigFile.Assignment)]
    ) {
        var path = path
        if includesIgnoreCase, paths.fileSystem.kindFollowingLinks(of: path) == nil, let found = Self.ignoringCase(path, in: paths.fileSystem) {
            note("\(origin): '\(paths.display(path))' was found as '\(paths.display(found))' by ignoring case, as Xcode does on macOS's "
                 + "case-insensitive disk; on Linux (and a case-sensitive disk) the name must match exactly")
            path = found
        }
        let shown = paths.display(path)
        guard let real = paths.confined(path) else {
            if optional {
                note("\(origin) is outside the project folder '\(paths.root)'; Xcode skips an optional #include? it cannot read, and so does slipway")
                return
            }
            let resolved = ConfinedPaths.realPath(of: path, in: paths.fileSystem)
            let link = resolved.map { $0 == ProjectPath.normalize(path) ? "" : " (a link to '\($0)')" } ?? " (a loop of links)"
            problem("\(origin)\(link) is outside the project folder '\(paths.root)'; slipway reads and writes only files inside it: move the file inside, or write the version with the step's 'files' option")
            return
        }
        if let start = stack.firstIndex(of: real) {
            let cycle = (stack[start...] + [real]).map { paths.display($0) }.joined(separator: " → ")
            problem("\(origin) makes a cycle of includes (\(cycle)); remove one of the #include lines")
            return
        }
        guard stack.count < Self.maximumIncludeDepth else {
            problem("\(origin) nests includes more than \(Self.maximumIncludeDepth) files deep; flatten the #include chain")
            return
        }
        let kind = paths.fileSystem.kindFollowingLinks(of: real)
        if let kind, kind != .file {
            // A FIFO or a device is there, not "nothing": say so, optional or not.
            problem("\(origin) is \(kind == .directory ? "a folder" : "not a regular file (a device, a FIFO or a socket)"); replace it with the .xcconfig itself")
            return
        }
        guard kind == .file else {
            if optional {
                note("\(origin) names '\(shown)', which does not exist; skipped, as Xcode skips a missing optional #include?")
                return
            }
            if stack.isEmpty, Self.isCocoaPodsSupportFile(real) {
                // What `pod install` writes there sets search paths and linker flags, never a
                // version: reading the version without it gives what Xcode reads after it.
                note("the targets' base configurations that CocoaPods writes ('Pods/Target Support Files/…/Pods-….xcconfig') do not "
                     + "exist (pod install writes them); they never set MARKETING_VERSION or CURRENT_PROJECT_VERSION, so the version is "
                     + "read from the other levels")
                return
            }
            var hint = CocoaPodsAdvice.isCocoaPodsPath(real) ? " (\(CocoaPodsAdvice.writesIt))" : ""
            if let other = Self.ignoringCase(path, in: paths.fileSystem) {
                hint += " ('\(paths.display(other))' differs only in case: Xcode finds it on macOS's case-insensitive disk; plan with "
                    + "--platform macos to read it so, or write the exact name for Linux)"
            }
            if origin.hasSuffix("'\(shown)'") {
                problem("\(origin) does not exist\(hint); create it, or fix the configuration's base file in Xcode (Project › Info › Configurations)")
            } else {
                problem("\(origin) names '\(shown)', which does not exist\(hint); fix the path, or write #include? for a file that may be absent")
            }
            return
        }
        let xcconfig: XcconfigFile
        if let cached = parsed[real] {
            xcconfig = cached
        } else {
            if let size = paths.fileSystem.status(of: real)?.details?.size, size > Int64(Self.maximumFileSize) {
                problem("'\(shown)' is larger than \(Self.maximumFileSize / 1024) KiB; slipway does not read an .xcconfig this large")
                return
            }
            do {
                // Capped while reading: a file that grew after the size check (or is no regular
                // file) is never read whole.
                let read: [UInt8]?
                do { read = try paths.fileSystem.read(real, limit: Self.maximumFileSize) } catch FileSystemError.tooLarge { read = nil }
                guard let bytes = read else {
                    problem("'\(shown)' is larger than \(Self.maximumFileSize / 1024) KiB; slipway does not read an .xcconfig this large")
                    return
                }
                xcconfig = try XcconfigFile(bytes: bytes)
            } catch let malformed as XcconfigFile.Malformed {
                problem("'\(shown):\(malformed.line)': '\(malformed.text)' is not an include Xcode reads; write #include \"Other.xcconfig\" (or #include? for an optional file)")
                return
            } catch {
                problem("'\(shown)' cannot be read: \(error.localizedDescription)")
                return
            }
            parsed[real] = xcconfig
        }
        let folder = ProjectPath.parent(real)
        for entry in xcconfig.entries {
            switch entry {
            case .assignment(let assignment):
                result.append((real, assignment))
            case .include(let include):
                let location = "'\(shown):\(include.line)': #include\(include.optional ? "?" : "") \"\(include.path)\""
                guard !include.path.contains("$") else {
                    problem("\(location) depends on a build setting, which slipway does not expand; write the path relative to '\(shown)'")
                    continue
                }
                let target = include.path.hasPrefix("/") ? ProjectPath.normalize(include.path) : ProjectPath.join(folder, include.path)
                load(target, origin: location, optional: include.optional, stack: stack + [real], into: &result)
            }
        }
    }

    /// The one entry whose path equals `path` when case is ignored, component by component
    /// (nil when none, or several, match).
    static func ignoringCase(_ path: String, in fileSystem: any FileSystem) -> String? {
        let normalized = ProjectPath.normalize(path)
        guard normalized.hasPrefix("/") else { return nil }
        var current = ""
        for component in normalized.split(separator: "/") {
            let candidate = current + "/" + component
            if fileSystem.kindFollowingLinks(of: candidate) != nil { current = candidate; continue }
            guard let names = try? fileSystem.contents(ofDirectory: current.isEmpty ? "/" : current) else { return nil }
            let matches = names.filter { $0.lowercased() == component.lowercased() }
            guard matches.count == 1, let match = matches.first else { return nil }
            current += "/" + match
        }
        return current == normalized ? nil : current
    }

    /// `…/Pods/Target Support Files/Pods-<Target>/Pods-<Target>.<configuration>.xcconfig`: a file
    /// CocoaPods generates for a target's base configuration.
    static func isCocoaPodsSupportFile(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        guard components.count >= 4, let name = components.last, name.hasPrefix("Pods-"), name.hasSuffix(".xcconfig") else { return false }
        return components[components.count - 3] == "Target Support Files" && components[components.count - 4] == "Pods"
    }
}
