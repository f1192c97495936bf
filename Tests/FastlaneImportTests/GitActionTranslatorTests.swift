@testable import FastlaneImport
import Testing
import TestThreads

/// The git actions' translators, with fastlane's documented examples.
@Suite(.dedicatedThreads) struct GitActionTranslatorTests {
    // https://docs.fastlane.tools/actions/ensure_git_status_clean/
    @Test func ensureGitStatusCleanDocumentedExample() throws {
        let lane = try ActionCase("ensure_git_status_clean")
        #expect(lane.kinds == ["git.ensure-clean"])
        #expect(lane.steps[0].options == [])
        #expect(lane.listed == [])
    }

    @Test func ensureGitStatusCleanListsWhatItCannotCarry() throws {
        let lane = try ActionCase("""
            ensure_git_status_clean(show_uncommitted_changes: true, show_diff: true, ignored: 'traditional', ignore_files: ['Podfile.lock'], colour: true)
            ensure_git_status_clean(ignored: 'none', ignore_files: IGNORED)
            ensure_git_status_clean(**CHECKS)
            """)
        #expect(lane.kinds == ["git.ensure-clean", "git.ensure-clean", "git.ensure-clean"])
        #expect(lane.listed == [
            "ensure_git_status_clean(show_diff: …): git.ensure-clean lists the changed paths, not the diff; add a 'run' step with 'git diff' before it if the log needs the diff",
            "ensure_git_status_clean(ignore_files: …): git.ensure-clean has no list of files to ignore: commit those files or add them to .gitignore, else check with a 'run' step",
            "ensure_git_status_clean(colour: …): not a parameter fastlane documents for ensure_git_status_clean (https://docs.fastlane.tools/actions/ensure_git_status_clean/); check the spelling, it is not translated",
            "ensure_git_status_clean(ignored: …): git.ensure-clean never counts ignored files; fastlane's 'traditional' mode does: check them with a 'run' step (git status --ignored)",
            "ensure_git_status_clean(ignore_files: …): git.ensure-clean has no list of files to ignore: commit those files or add them to .gitignore, else check with a 'run' step",
            "ensure_git_status_clean(**CHECKS): a splat: the arguments it passes are only known when Ruby runs; write them out in the call (each becomes an option or is listed)",
        ])
    }
}
