@testable import PBXProj

/// A small hand-written project in Xcode's form for the merge reproductions: a pass-through
/// group `Sources` (no path) holding `Sources/One.swift`, a group with folder `App` holding
/// `Two.swift` and `Three.swift`, one target whose phases are Sources, Frameworks, Resources.
enum MiniProject {
    static let mainGroup: ObjectID = "0A0000000000000000000002"
    static let sourcesGroup: ObjectID = "0A0000000000000000000003"
    static let appGroup: ObjectID = "0A0000000000000000000004"
    static let one: ObjectID = "0B0000000000000000000001"
    static let two: ObjectID = "0B0000000000000000000002"
    static let three: ObjectID = "0B0000000000000000000003"
    static let threeBuild: ObjectID = "0D0000000000000000000003"
    static let sourcesPhase: ObjectID = "0E0000000000000000000001"
    static let frameworksPhase: ObjectID = "0E0000000000000000000002"
    static let resourcesPhase: ObjectID = "0E0000000000000000000003"
    static let target: ObjectID = "0F0000000000000000000001"

    static let text = #"""
        // !$*UTF8*$!
        {
        	archiveVersion = 1;
        	classes = {
        	};
        	objectVersion = 56;
        	objects = {

        /* Begin PBXBuildFile section */
        		0D0000000000000000000001 /* Sources/One.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000001 /* Sources/One.swift */; };
        		0D0000000000000000000002 /* Two.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000002 /* Two.swift */; };
        		0D0000000000000000000003 /* Three.swift in Sources */ = {isa = PBXBuildFile; fileRef = 0B0000000000000000000003 /* Three.swift */; };
        /* End PBXBuildFile section */

        /* Begin PBXFileReference section */
        		0B0000000000000000000001 /* Sources/One.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Sources/One.swift; sourceTree = "<group>"; };
        		0B0000000000000000000002 /* Two.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Two.swift; sourceTree = "<group>"; };
        		0B0000000000000000000003 /* Three.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Three.swift; sourceTree = "<group>"; };
        		0B0000000000000000000009 /* Mini.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = Mini.app; sourceTree = BUILT_PRODUCTS_DIR; };
        /* End PBXFileReference section */

        /* Begin PBXFrameworksBuildPhase section */
        		0E0000000000000000000002 /* Frameworks */ = {
        			isa = PBXFrameworksBuildPhase;
        			buildActionMask = 2147483647;
        			files = (
        			);
        			runOnlyForDeploymentPostprocessing = 0;
        		};
        /* End PBXFrameworksBuildPhase section */

        /* Begin PBXGroup section */
        		0A0000000000000000000002 = {
        			isa = PBXGroup;
        			children = (
        				0A0000000000000000000003 /* Sources */,
        				0A0000000000000000000004 /* App */,
        				0A0000000000000000000005 /* Products */,
        			);
        			sourceTree = "<group>";
        		};
        		0A0000000000000000000003 /* Sources */ = {
        			isa = PBXGroup;
        			children = (
        				0B0000000000000000000001 /* Sources/One.swift */,
        			);
        			name = Sources;
        			sourceTree = "<group>";
        		};
        		0A0000000000000000000004 /* App */ = {
        			isa = PBXGroup;
        			children = (
        				0B0000000000000000000002 /* Two.swift */,
        				0B0000000000000000000003 /* Three.swift */,
        			);
        			path = App;
        			sourceTree = "<group>";
        		};
        		0A0000000000000000000005 /* Products */ = {
        			isa = PBXGroup;
        			children = (
        				0B0000000000000000000009 /* Mini.app */,
        			);
        			name = Products;
        			sourceTree = "<group>";
        		};
        /* End PBXGroup section */

        /* Begin PBXNativeTarget section */
        		0F0000000000000000000001 /* Mini */ = {
        			isa = PBXNativeTarget;
        			buildConfigurationList = 110000000000000000000002 /* Build configuration list for PBXNativeTarget "Mini" */;
        			buildPhases = (
        				0E0000000000000000000001 /* Sources */,
        				0E0000000000000000000002 /* Frameworks */,
        				0E0000000000000000000003 /* Resources */,
        			);
        			buildRules = (
        			);
        			dependencies = (
        			);
        			name = Mini;
        			productName = Mini;
        			productReference = 0B0000000000000000000009 /* Mini.app */;
        			productType = "com.apple.product-type.application";
        		};
        /* End PBXNativeTarget section */

        /* Begin PBXProject section */
        		0A0000000000000000000001 /* Project object */ = {
        			isa = PBXProject;
        			buildConfigurationList = 110000000000000000000001 /* Build configuration list for PBXProject "Mini" */;
        			compatibilityVersion = "Xcode 14.0";
        			mainGroup = 0A0000000000000000000002;
        			productRefGroup = 0A0000000000000000000005 /* Products */;
        			projectDirPath = "";
        			projectRoot = "";
        			targets = (
        				0F0000000000000000000001 /* Mini */,
        			);
        		};
        /* End PBXProject section */

        /* Begin PBXResourcesBuildPhase section */
        		0E0000000000000000000003 /* Resources */ = {
        			isa = PBXResourcesBuildPhase;
        			buildActionMask = 2147483647;
        			files = (
        			);
        			runOnlyForDeploymentPostprocessing = 0;
        		};
        /* End PBXResourcesBuildPhase section */

        /* Begin PBXSourcesBuildPhase section */
        		0E0000000000000000000001 /* Sources */ = {
        			isa = PBXSourcesBuildPhase;
        			buildActionMask = 2147483647;
        			files = (
        				0D0000000000000000000001 /* Sources/One.swift in Sources */,
        				0D0000000000000000000002 /* Two.swift in Sources */,
        				0D0000000000000000000003 /* Three.swift in Sources */,
        			);
        			runOnlyForDeploymentPostprocessing = 0;
        		};
        /* End PBXSourcesBuildPhase section */

        /* Begin XCBuildConfiguration section */
        		120000000000000000000001 /* Debug */ = {
        			isa = XCBuildConfiguration;
        			buildSettings = {
        			};
        			name = Debug;
        		};
        		120000000000000000000002 /* Debug */ = {
        			isa = XCBuildConfiguration;
        			buildSettings = {
        				PRODUCT_NAME = "$(TARGET_NAME)";
        			};
        			name = Debug;
        		};
        /* End XCBuildConfiguration section */

        /* Begin XCConfigurationList section */
        		110000000000000000000001 /* Build configuration list for PBXProject "Mini" */ = {
        			isa = XCConfigurationList;
        			buildConfigurations = (
        				120000000000000000000001 /* Debug */,
        			);
        			defaultConfigurationIsVisible = 0;
        			defaultConfigurationName = Debug;
        		};
        		110000000000000000000002 /* Build configuration list for PBXNativeTarget "Mini" */ = {
        			isa = XCConfigurationList;
        			buildConfigurations = (
        				120000000000000000000002 /* Debug */,
        			);
        			defaultConfigurationIsVisible = 0;
        			defaultConfigurationName = Debug;
        		};
        /* End XCConfigurationList section */
        	};
        	rootObject = 0A0000000000000000000001 /* Project object */;
        }

        """#
}
