import Basics
import Foundation

/// `sh` → `run`. fastlane runs `sh` in the fastlane folder: the command `cd`s there first.
enum ShTranslator: FastlaneActionTranslator {
    static let names = ["sh"]
    static let documentation = docs("sh")
    static let defaults = ["the command runs in the fastlane folder (the run step 'cd's there first)", "a failing command stops the lane, as a failing run step does"]
    static let parameters: [FastlaneParameter] = [
        .handled("command", "run's command (also the positional arguments, joined as shell words)"),
        .handled("log", "whether the command is printed; run steps always print it"),
        .listed("error_callback", "a Ruby block called on failure; run steps stop the lane (continue-on-error: true goes on)"),
    ]
    static let takesPositionalArguments = true

    /// Extensions of the files gym makes: a command naming them means gym's place for them.
    static let gymProducts = [".ipa", ".dSYM", ".app.dSYM.zip", ".pkg", ".xcarchive"]

    static func translate(_ call: RubyCall, _ statement: Fastfile.Statement, into builder: inout LaneBuilder) {
        var words: [String] = []
        for argument in call.positional + (call.argument("command").map { [$0] } ?? []) {
            guard case .string(let text)? = builder.value(argument, statement: statement) else {
                builder.skip(statement, "sh with a command built by Ruby (\(LaneBuilder.source(of: argument))); write it as a run step by hand")
                return
            }
            words.append(text)
        }
        guard !words.isEmpty else {
            builder.skip(statement, "sh without a command")
            return
        }
        let command = words.count == 1 ? words[0] : words.map(ShellQuoting.quote).joined(separator: " ")
        if let export = madeByGym(command, builder) {
            builder.skip(statement, "names a file gym made (\(export.product)) where gym put it; xcode.export puts its file at ${{ steps.\(export.id).outputs.path }} (in \(export.folder)) and the dSYMs stay in the archive: write the command with that path in a run step")
            return
        }
        let folder = (builder.path as NSString).deletingLastPathComponent
        builder.add("run", [DraftPair("command", .string(folder.isEmpty ? command : "cd \(ShellQuoting.quote(folder)) && \(command)"))], from: statement)
        builder.differ("sh runs in fastlane's folder: the run steps 'cd' there first")
    }

    /// The export step and the product named, when `command` names a file of gym's kinds after
    /// the lane archived or exported.
    static func madeByGym(_ command: String, _ builder: LaneBuilder) -> (id: String, folder: String, product: String)? {
        guard let product = gymProducts.first(where: { command.contains($0) }),
              let export = builder.draft.steps.last(where: { $0.kind == "xcode.export" || $0.kind == "xcode.archive" }) else { return nil }
        let exportStep = builder.draft.steps.last(where: { $0.kind == "xcode.export" })
        let folder = exportStep.flatMap { step -> String? in
            if case .string(let path)? = step.option("export-path") { return path }
            return nil
        } ?? "build/export"
        return (exportStep?.id ?? export.id ?? "export", folder, product)
    }
}
