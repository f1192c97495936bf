import Basics

extension CIExportOptions {
    /// The pin every job installs: `slipwayPin`, unless `--slipway-setup` or
    /// `--slipway-on-path` replaces the install.
    var installedPin: SlipwayPin? {
        slipwaySetup == nil && !slipwayOnPath ? slipwayPin : nil
    }
}

extension CIExporter {
    /// The lock file next to the lanes' project, where `slipway tools install` finds it.
    var lockfilePath: String { store.projectDirectory + "/" + SlipwayPin.lockfileName }

    /// `options` with Slipway's pin read from Toolfile.lock when no option says how jobs get
    /// `slipway`.
    /// - Throws: `CIExportError.conflictingSlipwayOptions`, `.slipwayNotPinned` (no pin and no
    ///   option), what `SlipwayPin.load` throws for a corrupt or unsafe lock.
    func resolvingSlipway(_ options: CIExportOptions) throws -> CIExportOptions {
        if options.slipwaySetup != nil && options.slipwayOnPath { throw CIExportError.conflictingSlipwayOptions }
        guard options.slipwaySetup == nil, !options.slipwayOnPath, options.slipwayPin == nil else { return options }
        guard let pin = try SlipwayPin.load(lockfile: lockfilePath, fileSystem: fileSystem) else {
            throw CIExportError.slipwayNotPinned(lockfileExists: fileSystem.exists(lockfilePath))
        }
        var resolved = options
        resolved.slipwayPin = pin
        return resolved
    }
}
