/// The XML of a shared `.xcscheme` as Xcode writes it: one buildable target that is built for
/// testing, running and archiving, a Release archive. For tests that need a project's scheme on disk.
public enum XcodeSchemeXML {
    /// A scheme that builds `target` (product `target.app` unless `product` says otherwise) of the
    /// project `container` (e.g. `App.xcodeproj`), whose object id is `blueprint`.
    public static func scheme(target: String, container: String, blueprint: String, product: String? = nil,
                              lastUpgrade: String = "1620") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme LastUpgradeVersion = "\(lastUpgrade)" version = "1.7">
           <BuildAction parallelizeBuildables = "YES" buildImplicitDependencies = "YES">
              <BuildActionEntries>
                 <BuildActionEntry buildForTesting = "YES" buildForRunning = "YES" buildForProfiling = "YES" buildForArchiving = "YES" buildForAnalyzing = "YES">
                    <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "\(blueprint)" BuildableName = "\(product ?? target + ".app")" BlueprintName = "\(target)" ReferencedContainer = "container:\(container)">
                    </BuildableReference>
                 </BuildActionEntry>
              </BuildActionEntries>
           </BuildAction>
           <TestAction buildConfiguration = "Debug" selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB" shouldUseLaunchSchemeArgsEnv = "YES"></TestAction>
           <LaunchAction buildConfiguration = "Debug"></LaunchAction>
           <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES"></ArchiveAction>
        </Scheme>

        """
    }

    /// The `Info.plist` of a target whose versions come from build settings, as Xcode's templates write it.
    public static func infoPlist(extraKeys: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleExecutable</key>
        \t<string>$(EXECUTABLE_NAME)</string>
        \t<key>CFBundleIdentifier</key>
        \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        \t<key>CFBundleShortVersionString</key>
        \t<string>$(MARKETING_VERSION)</string>
        \t<key>CFBundleVersion</key>
        \t<string>$(CURRENT_PROJECT_VERSION)</string>
        \(extraKeys)</dict>
        </plist>

        """
    }
}
