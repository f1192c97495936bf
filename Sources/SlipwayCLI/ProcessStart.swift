#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SlipwayCommand {
    /// The executable's entry point: unblocks SIGINT and SIGTERM, then parses and runs the
    /// command line. A parent may start us with them blocked (the mask is inherited through
    /// exec); Ctrl-C and CI cancellation must still reach the lane runner.
    public static func start() async {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        await main()
    }
}
