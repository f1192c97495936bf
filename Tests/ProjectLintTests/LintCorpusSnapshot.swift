/// Lint's findings over the corpus (every rule on), recorded from main (7e95510) before the rules
/// were made faster, and again when Pods/ and build-setting paths became one `unchecked-reference`
/// note each, `group-folder-mismatch` one finding per group, case-only differences `case-mismatch`,
/// and manifests, system frameworks, unclaimed subfolders and per-module duplicate references no longer
/// reported (issue 27); and when sync kept path-less groups virtual by default and stopped moving
/// (or pruning in) what never moves, such as a folder holding a Package.swift (issue 38): most
/// `group-folder-mismatch` findings came from path-less groups, and corpus frameworks with a
/// Package.swift at the top lose their `unreferenced-file` findings; see `LintCorpusSnapshotTests`.
enum LintCorpusSnapshot {
    static let findings: [String: String] = [
        "AFNetworking__AFNetworking__AFNetworking": "unsorted-children=7:28746e035853bf37 settings-in-project=16:3c44375fe1cd795d",
        "Alamofire__Alamofire__Alamofire": "missing-file=1:035ef99d3ce7551c unsorted-children=11:b2a127d70307af9b settings-in-project=22:ead4d34aa95bd51b",
        "Alamofire__Alamofire__iOS-Example": "unsorted-children=4:cb3aceea1172e6a9 settings-in-project=4:be03ba4cfb6df016",
        "CocoaPods__Xcodeproj__Emoji": "missing-file=2:f7d0e24e408b183b empty-group=2:d6e236c968950304 absolute-path=2:00d8efc5f3263a9d missing-setting-file=86:d341816ada5b881f unsorted-children=17:7be8c1f942f59c29 settings-in-project=70:e75bb3e53cf6fb8e",
        "CocoaPods__Xcodeproj__ProjectInMergeConflict": "merge-conflict-markers=6:e6779438d8714c5d",
        "Hammerspoon__hammerspoon__Hammerspoon": "missing-file=1:99ea2a61569a9f6f unsorted-children=63:08d59c15d568937d settings-in-project=288:7f1a8960d68802cc",
        "ReSwift__ReSwift__ReSwift": "unchecked-reference=1:483871aa9e0a7247 unsorted-children=5:70791f093eb1bb38 settings-in-project=18:a6f6fea954dc57d3",
        "ReactiveX__RxSwift__Preprocessor": "settings-in-project=4:1717affd5709d0b2",
        "ReactiveX__RxSwift__Rx": "source-in-no-target=9:0d938f1194628a98 empty-group=1:177152ab30aa9e28 unsorted-children=30:76ca3d080552583b settings-in-project=33:84cd39a2ca682ed6",
        "SwiftyJSON__SwiftyJSON__SwiftyJSON": "unsorted-children=6:1aa0c03454798b86 settings-in-project=18:ea07c5b4504d5ada",
        "Swinject__Swinject__Swinject": "duplicate-reference=2:7defee4c7e604b49 unsorted-children=2:5f79abcff113043f settings-in-project=18:89a39d468c2cdd0e",
        "coteditor__CotEditor__CotEditor": "unsorted-children=1:1b75d3b11a6d33e5 settings-in-project=20:a9beb8f0dca7611f",
        "coteditor__CotEditor__CotEditor-2024-06-objv63": "missing-file=1:26acced78f496ad6 unsorted-children=64:2ead059bb34a1e95 settings-in-project=12:79bd5f1cef994ac8",
        "duckduckgo__apple-browsers__DuckDuckGo-macOS": "duplicate-reference=2:d2c11c6c55250a52 source-in-no-target=2:12a1857e24dd538e unreferenced-file=19:b8a9c796a9e673ae unsorted-children=212:f877c7e7b0cd3c12 settings-in-project=4:c7c8a62e9899b52d",
        "fastlane__fastlane__ExampleWithInheritedXcconfig": "absolute-path=1:df379d57eca7669f missing-setting-file=4:080da95d549643fa unsorted-children=2:4b4a135d3e36b578 settings-in-project=6:d3cf670f33e180a9",
        "fastlane__fastlane__FastlaneTrainerExample": "unsorted-children=1:a202ef1480bc3fd7 settings-in-project=10:243f983891a22a05",
        "fastlane__fastlane__VisionExample": "unsorted-children=2:0b8dd87ff4d93fb2 settings-in-project=4:d34222462c49fe91",
        "fastlane__fastlane__With-Spaces": "source-in-no-target=2:943c51c4428275d7 unsorted-children=4:8bee357201dfa7cb settings-in-project=6:4bb91981141951cf",
        "firebase__firebase-ios-sdk__Firestore": "missing-file=1:acf8dedb9812ac75 unchecked-reference=1:bc673db536a23e53 empty-group=2:fc0c101f791ab0d9 unsorted-children=6:4be03389e916386d settings-in-project=24:b42ec23192bcbb5d",
        "getsentry__sentry-cocoa__DuplicatedSDKTest": "missing-file=1:d339d72aeaa5023a unsorted-children=1:3ec5d6cc45a0a068 settings-in-project=12:536fbab048c90602",
        "home-assistant__iOS__HomeAssistant-2021-01-objv53": "missing-file=1:b51334a683e5ab3d unchecked-reference=1:83cdd09c1ff58882 source-in-no-target=1:24e05dc467a3a3e2 unsorted-children=53:1fc7bd338c7beaab settings-in-project=45:eea641c37ea8825e",
        "nohana__NohanaImagePicker__NohanaImagePicker": "unsorted-children=12:ad4020ace30c079b settings-in-project=6:a920f6194f60d066",
        "quicksilver__Quicksilver__UKProgressPanel": "non-canonical-format=1:f91e980c7c0fa7a4 unsorted-children=4:882be858b7cbfad9",
        "rxhanson__Rectangle__Rectangle": "unsorted-children=12:2e00cf62c76a5c34 settings-in-project=8:3456d49945de6db1",
        "tuist__XcodeProj__AppWithExtensions": "unsorted-children=7:9738610e561249c8 settings-in-project=12:8f2fa9d7bc33cd2b",
        "tuist__XcodeProj__ProjectWithoutProductsGroup": "",
        "tuist__XcodeProj__SynchronizedRootGroups": "unsorted-children=1:365645d84fa5214b settings-in-project=4:d0b56c17809a7937",
        "tuist__XcodeProj__WithoutWorkspace": "non-canonical-format=1:2723767d101121ba unsorted-children=2:eff0d7c3b51cc7ec settings-in-project=8:bb1f094f0975352c",
        "tuist__XcodeProj__Xcode16-Test": "unsorted-children=1:8713e988d78cfd8b settings-in-project=4:9c5f05114fd2d778",
        "tuist__XcodeProj__Xcode16ProjectReferenceOrder-Test": "empty-group=1:1e040c3411fd232a missing-setting-file=2:e4770b605353f7d4 unsorted-children=1:7d466158fd7ee1ed settings-in-project=4:20941d78bd890dc4",
        "tuist__XcodeProj__iOS-Project": "dead-build-file=1:cbf64265092de825 empty-group=1:442a0549d9fc99d0 unsorted-children=3:bf41ea1c25406795 settings-in-project=6:e04cdfb48928cddc",
        "venmo__synx__dummy": "case-mismatch=1:f0e0a4f418ce62c9 duplicate-reference=1:0b0da3c86deeca0a missing-setting-file=2:e8ab1f17503cb80b unreferenced-file=3:f87184ff00380dff unsorted-children=5:df408cbf8d309f09 settings-in-project=8:cc81adfca1627806",
        "xmartlabs__XLPagerTabStrip__Example": "unsorted-children=4:a75ee8aee21192ed settings-in-project=6:91239882d68d4551",
        "xmartlabs__XLPagerTabStrip__XLPagerTabStrip": "unsorted-children=5:5c0c66dce0ad5675 settings-in-project=6:e27b2e0646bcac1d",
        "yonaskolb__XcodeGen__TestProject": "unsorted-children=3:fb4101fc56cbf289 settings-in-project=270:b812789b2a45d764",
    ]
}
