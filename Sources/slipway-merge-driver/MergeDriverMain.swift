import Basics
import PBXProj
import XcodeprojMerge

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `slipway-merge-driver [--versions higher|conflict] [--no-color] BASE OURS THEIRS`: git's merge
/// driver for `project.pbxproj`, the same as `slipway xcodeproj merge BASE OURS THEIRS` (one
/// function, `MergeDriverRun`, does the work of both: same bytes written, same lines printed, same
/// exit status) in a binary that starts several times faster, since it links only the merge
/// (no libgit2, no networking, no command tree). `slipway xcodeproj merge --install` writes its
/// path into `.git/config` when it sits beside `slipway`.
@main
enum MergeDriverMain {
    static let usage = """
        USAGE: slipway-merge-driver [--versions higher|conflict] [--no-color] BASE OURS THEIRS

        git's merge driver for project.pbxproj: merges BASE, OURS and THEIRS (git's %O %A %B) into \
        OURS, as 'slipway xcodeproj merge' does (see 'slipway xcodeproj merge --help'). Installed \
        by 'slipway xcodeproj merge --install'.

        """

    static func main() async {
        let environment = Environment.current
        var style = TerminalStyle.detect(for: .standardOutput, environment: environment)
        let standardError = TerminalSafeOutput(FileDescriptorOutput.standardError)
        let standardOutput = TerminalSafeOutput(FileDescriptorOutput.standardOutput)
        var versions = PBXProjVersionBumps.higher
        var files: [String] = []
        var arguments = CommandLine.arguments.dropFirst()[...]
        var usageError: String?
        var optionsEnded = false
        while let argument = arguments.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                files.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument == "-h" || argument == "--help" {
                FileDescriptorOutput.standardOutput.write(usage)
                exit(0)
            } else if argument == "--no-color" {
                style.colors = false
            } else if argument == "--versions" || argument.hasPrefix("--versions=") {
                let value = argument == "--versions" ? arguments.popFirst() : String(argument.dropFirst("--versions=".count))
                guard let value, let parsed = PBXProjVersionBumps(rawValue: value) else {
                    usageError = "--versions takes 'higher' or 'conflict', got \(value.map { "'\($0)'" } ?? "nothing")"
                    break
                }
                versions = parsed
            } else {
                usageError = "unknown option '\(argument)'"
                break
            }
        }
        if usageError == nil, files.count != 3 {
            usageError = "expected three files, BASE OURS THEIRS (git passes %O %A %B), got \(files.count)"
        }
        if let usageError {
            ErrorLine.write(usageError, style: style, gitHubActions: environment.isGitHubActions,
                            standardError: standardError, standardOutput: standardOutput)
            standardError.write(usage)
            exit(64)
        }
        ShortRunMemory.prepare()
        let run = MergeDriverRun(environment: environment, style: style, standardError: standardError,
                                 standardOutput: standardOutput, processRunner: LocalProcessRunner())
        exit(await run.run(base: files[0], ours: files[1], theirs: files[2], versions: versions))
    }
}

/// The driver is a short run that reads three versions of a project and writes one, and most of
/// its memory is a few large arrays (the texts, their syntax trees, the result). By default glibc
/// gives each array larger than 128 KiB pages of its own, faulted in 4 KiB at a time and handed
/// back to the kernel when freed (a copy of a growing array faults its new pages again). Here the
/// heap serves every allocation and keeps what is freed, grows in 64 MiB steps, and asks the
/// kernel for 2 MiB pages on it (where the system leaves them to the program, as Debian's
/// default `madvise` does), from the first 2 MiB page on: about 5,400 page faults per merge of a
/// 1.5 MB project become about 550. The system's allocator on other systems is left as it is.
enum ShortRunMemory {
    static func prepare() {
        #if canImport(Glibc)
        // mallopt is not in Swift's Glibc module: found by name, with the C calling convention.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        // M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, M_TOP_PAD, M_ARENA_MAX (one heap: the merge runs on
        // a thread of Swift's pool, which would otherwise get a heap of its own).
        let (mmapThreshold, trimThreshold, topPad, arenaMax): (Int32, Int32, Int32, Int32) = (-3, -1, -2, -8)
        guard mallopt(arenaMax, 1) == 1, mallopt(mmapThreshold, 256 << 20) == 1, mallopt(trimThreshold, 512 << 20) == 1,
            mallopt(topPad, 64 << 20) == 1, let start = sbrk(0)
        else { return }
        // Grows the heap once (nothing is touched), then marks it for 2 MiB pages. (free is
        // called by name too, or the compiler drops the pair as unused.)
        typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        guard let freeSymbol = dlsym(handle, "free") else { return }
        unsafeBitCast(freeSymbol, to: Free.self)(malloc(32 << 20))
        guard let end = sbrk(0) else { return }
        let hugePage = 2 << 20
        let first = (Int(bitPattern: start) + hugePage - 1) & ~(hugePage - 1), last = Int(bitPattern: end) & ~(hugePage - 1)
        guard last > first else { return }
        _ = madvise(UnsafeMutableRawPointer(bitPattern: first), last - first, MADV_HUGEPAGE)
        // What is allocated next starts at the first 2 MiB page, not below it, where the files
        // read first would fault 4 KiB at a time: the space below is taken by one block that is
        // never touched (so it costs no memory) nor freed.
        // (malloc called by name: an unused result would be dropped.)
        typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
        guard let mallocSymbol = dlsym(handle, "malloc") else { return }
        let allocate = unsafeBitCast(mallocSymbol, to: Malloc.self)
        guard let probe = allocate(64 << 10) else { return }
        let below = first - (Int(bitPattern: probe) + (64 << 10)) - 64
        if below > 0 { _ = allocate(below) }

        #endif
    }
}
