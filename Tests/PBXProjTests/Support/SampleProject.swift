@testable import PBXProj

/// A small project written for these tests in Xcode's canonical form (objectVersion 77): every
/// sourceTree kind, a variant group, a version group, a synchronized folder with an exception
/// set, remote and local Swift packages, two targets with a dependency, and an isa no version of
/// Xcode knows, to check that unknown objects and keys are kept.
enum SampleProject {
    static let project: ObjectID = "0A0000000000000000000001"
    static let mainGroup: ObjectID = "0A0000000000000000000002"
    static let appGroup: ObjectID = "0A0000000000000000000003"
    static let testsGroup: ObjectID = "0A0000000000000000000006"
    static let productsGroup: ObjectID = "0A0000000000000000000004"
    static let appDelegate: ObjectID = "0B0000000000000000000001"
    static let contentView: ObjectID = "0B0000000000000000000002"
    static let baseStoryboard: ObjectID = "0B0000000000000000000003"
    static let variantGroup: ObjectID = "0C0000000000000000000001"
    static let versionGroup: ObjectID = "0C0000000000000000000002"
    static let syncGroup: ObjectID = "0C0000000000000000000003"
    static let exceptionSet: ObjectID = "0C0000000000000000000004"
    static let appTarget: ObjectID = "0F0000000000000000000001"
    static let testTarget: ObjectID = "0F0000000000000000000002"
    static let appDebug: ObjectID = "120000000000000000000003"
    static let appRelease: ObjectID = "120000000000000000000004"
    static let projectDebug: ObjectID = "120000000000000000000001"
    static let infoPlist: ObjectID = "0B0000000000000000000006"
    static let words: ObjectID = "0B0000000000000000000008"
    static let uikit: ObjectID = "0B0000000000000000000009"
    static let resources: ObjectID = "0B0000000000000000000007"
    static let appProduct: ObjectID = "0B0000000000000000000005"
    static let model: ObjectID = "0B000000000000000000000A"
    static let remotePackage: ObjectID = "130000000000000000000001"
    static let localPackage: ObjectID = "130000000000000000000002"
    static let future: ObjectID = "140000000000000000000001"
    static let xcconfig: ObjectID = "0B000000000000000000000B"
    static let sourcesPhase: ObjectID = "0E0000000000000000000001"
    static let dependency: ObjectID = "100000000000000000000001"
    static let proxy: ObjectID = "100000000000000000000002"

    /// The project text.
    static let text = #"""
// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 77;
	objects = {

/* Begin PBXBuildFile section */
		0D0000000000000000000001 /* AppDelegate.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000001 /* AppDelegate.swift */; };
		0D0000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000002 /* ContentView.swift */; };
		0D0000000000000000000003 /* Main.storyboard in Resources */ = {isa = PBXBuildFile; fileRef = 0C0000000000000000000001 /* Main.storyboard */; };
		0D0000000000000000000004 /* UIKit.framework in Frameworks */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000009 /* UIKit.framework */; settings = {ATTRIBUTES = (Weak, ); }; };
		0D0000000000000000000005 /* Model.xcdatamodeld in Sources */ = {isa = PBXBuildFile; fileRef = 0C0000000000000000000002 /* Model.xcdatamodeld */; };
		0D0000000000000000000006 /* ArgumentParser in Frameworks */ = {isa = PBXBuildFile; productRef = 130000000000000000000003 /* ArgumentParser */; };
		0D0000000000000000000007 /* Resources in Resources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000007 /* Resources */; };
		0D0000000000000000000008 /* AppTests.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B000000000000000000000C /* AppTests.swift */; };
		0D0000000000000000000009 /* Core in Frameworks */ = {isa = PBXBuildFile; productRef = 130000000000000000000004 /* Core */; };
/* End PBXBuildFile section */

/* Begin PBXContainerItemProxy section */
		100000000000000000000002 /* PBXContainerItemProxy */ = {
			isa = PBXContainerItemProxy;
			containerPortal = 0A0000000000000000000001 /* Project object */;
			proxyType = 1;
			remoteGlobalIDString = 0F0000000000000000000001;
			remoteInfo = App;
		};
/* End PBXContainerItemProxy section */

/* Begin PBXFileReference section */
		0B0000000000000000000001 /* AppDelegate.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppDelegate.swift; sourceTree = "<group>"; };
		0B0000000000000000000002 /* ContentView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ContentView.swift; sourceTree = "<group>"; };
		0B0000000000000000000003 /* Base */ = {isa = PBXFileReference; lastKnownFileType = file.storyboard; name = Base; path = Base.lproj/Main.storyboard; sourceTree = "<group>"; };
		0B0000000000000000000004 /* de */ = {isa = PBXFileReference; lastKnownFileType = text.plist.strings; name = de; path = de.lproj/Main.strings; sourceTree = "<group>"; };
		0B0000000000000000000005 /* App.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = App.app; sourceTree = BUILT_PRODUCTS_DIR; };
		0B0000000000000000000006 /* App/Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = App/Info.plist; sourceTree = SOURCE_ROOT; };
		0B0000000000000000000007 /* Resources */ = {isa = PBXFileReference; lastKnownFileType = folder; path = Resources; sourceTree = "<group>"; };
		0B0000000000000000000008 /* words */ = {isa = PBXFileReference; lastKnownFileType = text; name = words; path = /usr/share/dict/words; sourceTree = "<absolute>"; };
		0B0000000000000000000009 /* UIKit.framework */ = {isa = PBXFileReference; lastKnownFileType = wrapper.framework; name = UIKit.framework; path = System/Library/Frameworks/UIKit.framework; sourceTree = SDKROOT; };
		0B000000000000000000000A /* Model.xcdatamodel */ = {isa = PBXFileReference; lastKnownFileType = wrapper.xcdatamodel; path = Model.xcdatamodel; sourceTree = "<group>"; };
		0B000000000000000000000B /* Config.xcconfig */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = Config.xcconfig; sourceTree = "<group>"; };
		0B000000000000000000000C /* AppTests.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppTests.swift; sourceTree = "<group>"; };
		0B000000000000000000000D /* AppTests.xctest */ = {isa = PBXFileReference; explicitFileType = wrapper.cfbundle; includeInIndex = 0; path = AppTests.xctest; sourceTree = BUILT_PRODUCTS_DIR; };
/* End PBXFileReference section */

/* Begin PBXFileSystemSynchronizedBuildFileExceptionSet section */
		0C0000000000000000000004 /* PBXFileSystemSynchronizedBuildFileExceptionSet */ = {
			isa = PBXFileSystemSynchronizedBuildFileExceptionSet;
			membershipExceptions = (
				Info.plist,
				Excluded/Skip.swift,
			);
			target = 0F0000000000000000000001 /* App */;
		};
/* End PBXFileSystemSynchronizedBuildFileExceptionSet section */

/* Begin PBXFileSystemSynchronizedRootGroup section */
		0C0000000000000000000003 /* Synced */ = {
			isa = PBXFileSystemSynchronizedRootGroup;
			exceptions = (
				0C0000000000000000000004 /* PBXFileSystemSynchronizedBuildFileExceptionSet */,
			);
			path = Synced;
			sourceTree = "<group>";
		};
/* End PBXFileSystemSynchronizedRootGroup section */

/* Begin PBXFrameworksBuildPhase section */
		0E0000000000000000000003 /* Frameworks */ = {
			isa = PBXFrameworksBuildPhase;
			buildActionMask = 2147483647;
			files = (
				0D0000000000000000000004 /* UIKit.framework in Frameworks */,
				0D0000000000000000000006 /* ArgumentParser in Frameworks */,
				0D0000000000000000000009 /* Core in Frameworks */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXFrameworksBuildPhase section */

/* Begin PBXFutureThing section */
		140000000000000000000001 /* Future */ = {
			isa = PBXFutureThing;
			futureKey = "kept as is";
			name = Future;
		};
/* End PBXFutureThing section */

/* Begin PBXGroup section */
		0A0000000000000000000002 = {
			isa = PBXGroup;
			children = (
				0A0000000000000000000003 /* App */,
				0C0000000000000000000003 /* Synced */,
				0A0000000000000000000006 /* Tests */,
				0A0000000000000000000005 /* Frameworks */,
				0B0000000000000000000006 /* App/Info.plist */,
				0B000000000000000000000B /* Config.xcconfig */,
				0A0000000000000000000004 /* Products */,
			);
			sourceTree = "<group>";
		};
		0A0000000000000000000003 /* App */ = {
			isa = PBXGroup;
			children = (
				0B0000000000000000000001 /* AppDelegate.swift */,
				0B0000000000000000000002 /* ContentView.swift */,
				0C0000000000000000000001 /* Main.storyboard */,
				0C0000000000000000000002 /* Model.xcdatamodeld */,
				0B0000000000000000000007 /* Resources */,
				0B0000000000000000000008 /* words */,
			);
			path = App;
			sourceTree = "<group>";
		};
		0A0000000000000000000004 /* Products */ = {
			isa = PBXGroup;
			children = (
				0B0000000000000000000005 /* App.app */,
				0B000000000000000000000D /* AppTests.xctest */,
			);
			name = Products;
			sourceTree = "<group>";
		};
		0A0000000000000000000005 /* Frameworks */ = {
			isa = PBXGroup;
			children = (
				0B0000000000000000000009 /* UIKit.framework */,
			);
			name = Frameworks;
			sourceTree = "<group>";
		};
		0A0000000000000000000006 /* Tests */ = {
			isa = PBXGroup;
			children = (
				0B000000000000000000000C /* AppTests.swift */,
			);
			path = Tests;
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
		0F0000000000000000000001 /* App */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = 110000000000000000000002 /* Build configuration list for PBXNativeTarget "App" */;
			buildPhases = (
				0E0000000000000000000001 /* Sources */,
				0E0000000000000000000002 /* Resources */,
				0E0000000000000000000003 /* Frameworks */,
				0E0000000000000000000004 /* Lint */,
			);
			buildRules = (
			);
			dependencies = (
			);
			fileSystemSynchronizedGroups = (
				0C0000000000000000000003 /* Synced */,
			);
			name = App;
			packageProductDependencies = (
				130000000000000000000003 /* ArgumentParser */,
				130000000000000000000004 /* Core */,
			);
			productName = App;
			productReference = 0B0000000000000000000005 /* App.app */;
			productType = "com.apple.product-type.application";
		};
		0F0000000000000000000002 /* AppTests */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = 110000000000000000000003 /* Build configuration list for PBXNativeTarget "AppTests" */;
			buildPhases = (
				0E0000000000000000000005 /* Sources */,
			);
			buildRules = (
			);
			dependencies = (
				100000000000000000000001 /* PBXTargetDependency */,
			);
			name = AppTests;
			productName = AppTests;
			productReference = 0B000000000000000000000D /* AppTests.xctest */;
			productType = "com.apple.product-type.bundle.unit-test";
		};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
		0A0000000000000000000001 /* Project object */ = {
			isa = PBXProject;
			attributes = {
				BuildIndependentTargetsInParallel = 1;
				LastUpgradeCheck = 1600;
				TargetAttributes = {
					0F0000000000000000000001 = {
						CreatedOnToolsVersion = 16.0;
					};
					0F0000000000000000000002 = {
						TestTargetID = 0F0000000000000000000001;
					};
				};
			};
			buildConfigurationList = 110000000000000000000001 /* Build configuration list for PBXProject "Sample" */;
			developmentRegion = en;
			hasScannedForEncodings = 0;
			knownRegions = (
				en,
				Base,
				de,
			);
			mainGroup = 0A0000000000000000000002;
			packageReferences = (
				130000000000000000000001 /* XCRemoteSwiftPackageReference "swift-argument-parser" */,
				130000000000000000000002 /* XCLocalSwiftPackageReference "../Packages/Core" */,
			);
			productRefGroup = 0A0000000000000000000004 /* Products */;
			projectDirPath = "";
			projectRoot = "";
			targets = (
				0F0000000000000000000001 /* App */,
				0F0000000000000000000002 /* AppTests */,
			);
		};
/* End PBXProject section */

/* Begin PBXResourcesBuildPhase section */
		0E0000000000000000000002 /* Resources */ = {
			isa = PBXResourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				0D0000000000000000000003 /* Main.storyboard in Resources */,
				0D0000000000000000000007 /* Resources in Resources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXResourcesBuildPhase section */

/* Begin PBXShellScriptBuildPhase section */
		0E0000000000000000000004 /* Lint */ = {
			isa = PBXShellScriptBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			inputPaths = (
			);
			name = Lint;
			outputPaths = (
			);
			runOnlyForDeploymentPostprocessing = 0;
			shellPath = /bin/sh;
			shellScript = "swiftlint lint --quiet\n";
		};
/* End PBXShellScriptBuildPhase section */

/* Begin PBXSourcesBuildPhase section */
		0E0000000000000000000001 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				0D0000000000000000000001 /* AppDelegate.swift in Sources */,
				0D0000000000000000000002 /* ContentView.swift in Sources */,
				0D0000000000000000000005 /* Model.xcdatamodeld in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
		0E0000000000000000000005 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				0D0000000000000000000008 /* AppTests.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXSourcesBuildPhase section */

/* Begin PBXTargetDependency section */
		100000000000000000000001 /* PBXTargetDependency */ = {
			isa = PBXTargetDependency;
			target = 0F0000000000000000000001 /* App */;
			targetProxy = 100000000000000000000002 /* PBXContainerItemProxy */;
		};
/* End PBXTargetDependency section */

/* Begin PBXVariantGroup section */
		0C0000000000000000000001 /* Main.storyboard */ = {
			isa = PBXVariantGroup;
			children = (
				0B0000000000000000000003 /* Base */,
				0B0000000000000000000004 /* de */,
			);
			name = Main.storyboard;
			sourceTree = "<group>";
		};
/* End PBXVariantGroup section */

/* Begin XCBuildConfiguration section */
		120000000000000000000001 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GCC_PREPROCESSOR_DEFINITIONS = (
					"DEBUG=1",
					"$(inherited)",
				);
				ONLY_ACTIVE_ARCH = YES;
				SDKROOT = iphoneos;
			};
			name = Debug;
		};
		120000000000000000000002 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				SDKROOT = iphoneos;
				VALIDATE_PRODUCT = YES;
			};
			name = Release;
		};
		120000000000000000000003 /* Debug */ = {
			isa = XCBuildConfiguration;
			baseConfigurationReference = 0B000000000000000000000B /* Config.xcconfig */;
			buildSettings = {
				CURRENT_PROJECT_VERSION = 7;
				INFOPLIST_FILE = App/Info.plist;
				MARKETING_VERSION = 1.2.0;
				PRODUCT_BUNDLE_IDENTIFIER = com.example.app;
				PRODUCT_NAME = "$(TARGET_NAME)";
				SWIFT_VERSION = 5.0;
			};
			name = Debug;
		};
		120000000000000000000004 /* Release */ = {
			isa = XCBuildConfiguration;
			baseConfigurationReference = 0B000000000000000000000B /* Config.xcconfig */;
			buildSettings = {
				CURRENT_PROJECT_VERSION = 7;
				INFOPLIST_FILE = App/Info.plist;
				MARKETING_VERSION = 1.2.0;
				PRODUCT_BUNDLE_IDENTIFIER = com.example.app;
				PRODUCT_NAME = "$(TARGET_NAME)";
				SWIFT_VERSION = 5.0;
			};
			name = Release;
		};
		120000000000000000000005 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				BUNDLE_LOADER = "$(TEST_HOST)";
				PRODUCT_NAME = "$(TARGET_NAME)";
				TEST_HOST = "$(BUILT_PRODUCTS_DIR)/App.app/App";
			};
			name = Debug;
		};
		120000000000000000000006 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				BUNDLE_LOADER = "$(TEST_HOST)";
				PRODUCT_NAME = "$(TARGET_NAME)";
				TEST_HOST = "$(BUILT_PRODUCTS_DIR)/App.app/App";
			};
			name = Release;
		};
/* End XCBuildConfiguration section */

/* Begin XCConfigurationList section */
		110000000000000000000001 /* Build configuration list for PBXProject "Sample" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				120000000000000000000001 /* Debug */,
				120000000000000000000002 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
		110000000000000000000002 /* Build configuration list for PBXNativeTarget "App" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				120000000000000000000003 /* Debug */,
				120000000000000000000004 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
		110000000000000000000003 /* Build configuration list for PBXNativeTarget "AppTests" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				120000000000000000000005 /* Debug */,
				120000000000000000000006 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Release;
		};
/* End XCConfigurationList section */

/* Begin XCLocalSwiftPackageReference section */
		130000000000000000000002 /* XCLocalSwiftPackageReference "../Packages/Core" */ = {
			isa = XCLocalSwiftPackageReference;
			relativePath = ../Packages/Core;
		};
/* End XCLocalSwiftPackageReference section */

/* Begin XCRemoteSwiftPackageReference section */
		130000000000000000000001 /* XCRemoteSwiftPackageReference "swift-argument-parser" */ = {
			isa = XCRemoteSwiftPackageReference;
			repositoryURL = "https://github.com/apple/swift-argument-parser.git";
			requirement = {
				kind = upToNextMajorVersion;
				minimumVersion = 1.5.0;
			};
		};
/* End XCRemoteSwiftPackageReference section */

/* Begin XCSwiftPackageProductDependency section */
		130000000000000000000003 /* ArgumentParser */ = {
			isa = XCSwiftPackageProductDependency;
			package = 130000000000000000000001 /* XCRemoteSwiftPackageReference "swift-argument-parser" */;
			productName = ArgumentParser;
		};
		130000000000000000000004 /* Core */ = {
			isa = XCSwiftPackageProductDependency;
			productName = Core;
		};
/* End XCSwiftPackageProductDependency section */

/* Begin XCVersionGroup section */
		0C0000000000000000000002 /* Model.xcdatamodeld */ = {
			isa = XCVersionGroup;
			children = (
				0B000000000000000000000A /* Model.xcdatamodel */,
			);
			currentVersion = 0B000000000000000000000A /* Model.xcdatamodel */;
			path = Model.xcdatamodeld;
			sourceTree = "<group>";
			versionGroupType = wrapper.xcdatamodel;
		};
/* End XCVersionGroup section */
	};
	rootObject = 0A0000000000000000000001 /* Project object */;
}

"""#
}
