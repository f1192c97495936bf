import ArgumentParser

/// The `slipway` root command: lists the subcommands and holds the version.
public struct SlipwayCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "slipway",
        abstract: "Release lanes, Xcode group/directory sync and tool pins in one fast binary.",
        discussion: ExitCodes.helpText,
        version: SlipwayVersion.current,
        subcommands: [
            RunCommand.self,
            CICommand.self,
            LanesCommand.self,
            ValidateCommand.self,
            StepsCommand.self,
            StepCommand.self,
            InitCommand.self,
            VersionCommand.self,
            ChangelogCommand.self,
            ToolsCommand.self,
            DepsCommand.self,
            VerifyCommand.self,
            ExecCommand.self,
            SyncCommand.self,
            KeysCommand.self,
            XcodeprojCommand.self,
            XcodeCommand.self,
            AppStoreCommand.self,
            PreflightCommand.self,
            SigningCommand.self,
            DevicesCommand.self,
            TestFlightCommand.self,
            PushCommand.self,
        ]
    )

    public init() {}
}
