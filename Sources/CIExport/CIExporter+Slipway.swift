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
    ///   option), `.slipwayLockUnreadable` for a corrupt lock, what `SlipwayPin.init` throws
    ///   for an unsafe entry.
    func resolvingSlipway(_ options: CIExportOptions) throws -> CIExportOptions {
        if options.slipwaySetup != nil && options.slipwayOnPath { throw CIExportError.conflictingSlipwayOptions }
        guard options.slipwaySetup == nil, !options.slipwayOnPath, options.slipwayPin == nil else { return options }
        let loaded: SlipwayPin?
        do {
            loaded = try SlipwayPin.load(lockfile: lockfilePath, fileSystem: fileSystem)
        } catch let error as CIExportError {
            throw error
        } catch {
            // A corrupt lock (or one that cannot be read) is bad input to the export, as its other errors.
            throw CIExportError.slipwayLockUnreadable(errorText(error))
        }
        guard let pin = loaded else {
            throw CIExportError.slipwayNotPinned(lockfileExists: fileSystem.exists(lockfilePath))
        }
        var resolved = options
        resolved.slipwayPin = pin
        return resolved
    }
}
