import SlipwayCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum Entrypoint {
    static func main() async {
        // A parent may start us with SIGINT/SIGTERM blocked (the mask is inherited through
        // exec); Ctrl-C and CI cancellation must still reach the lane runner.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        await SlipwayCommand.main()
    }
}
