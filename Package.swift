// swift-tools-version: 6.0
import PackageDescription

/// Every library module is also a library product of the same name, so an app depends on exactly
/// what it imports. Grouped by layer, as the targets below are.
let libraries = [
    // Base, wire formats, I/O and engines: no SDK types.
    "AIBudsSync", "AIBudsErrors", "AIBudsFiles", "AIBudsProcess", "AIBudsLog",
    "AIBudsCBOR", "AIBudsHTTPWire", "AIBudsMCUboot", "AIBudsWire", "AIBudsDigest",
    "AIBudsNet", "AIBudsHTTPServer", "AIBudsHTTPClient", "AIBudsDBus",
    "AIBudsTransfer", "AIBudsSMPClient",
    // The vendor's vocabulary, the device core, the import engine, plugins and facades.
    "AIBudsFoundation", "AIBudsPCM", "AIBuds", "AIBudsImport", "AIBudsS3",
    "AIBudsSMP", "AIBudsSMPAudio", "AIBudsBlueZ", "TopStepComKit",
    // Features: stabilization, audio, the AI side, live streaming, observability.
    "AIBudsStabilization", "AIBudsONNX", "AIBudsAudio",
    "AIBudsAIFoundation", "AIBudsAISDK", "AIBudsOfflineAI", "AIBudsOpenAI", "AIBudsVoiceAssistant",
    "AIBudsLiveCamera", "AIBudsLiveStream",
    "AIBudsSQLite", "AIBudsLogStore", "AIBudsXLFacility", "AIBudsJournal", "AIBudsCrashReporter", "AIBudsAIDashboard", "AIBudsAIDashboardBridge",
    // Bundles, the emulator and test tools.
    "AIBudsAllInOne", "AIBudsEmulator", "AIBudsTestKit",
]

let package = Package(
    name: "AIBuds",
    platforms: [.macOS(.v15)],
    products: libraries.map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "aibuds", targets: ["aibuds"]),
    ],
    targets: [
        // Base: locks and signals, files, child processes, logging.
        .target(name: "AIBudsSync"),
        .target(name: "AIBudsErrors"),
        // Files a user or a peer named, written safely (OutputFile): no SDK types, no dependencies.
        .target(name: "AIBudsFiles"),
        .target(name: "CSpawn"),
        .target(name: "AIBudsProcess", dependencies: ["AIBudsSync", "CSpawn"]),
        .target(name: "AIBudsLog", dependencies: ["AIBudsSync"]),

        // Wire formats, one module a job: CBOR (RFC 8949, with Codable), HTTP/1.1 heads and ranges,
        // MCUboot images, the device's own protocol (SMP framing and the messages of every group, live
        // frame stamps, discovery announcements, device file names); digests through OpenSSL and libdeflate.
        .target(name: "AIBudsCBOR"),
        .target(name: "AIBudsHTTPWire", dependencies: ["AIBudsErrors"]),
        .target(name: "AIBudsMCUboot"),
        .target(name: "AIBudsWire", dependencies: ["AIBudsErrors", "AIBudsCBOR", "AIBudsMCUboot"]),
        .systemLibrary(name: "CCrypto"),
        .systemLibrary(name: "CDeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(name: "AIBudsDigest", dependencies: ["CCrypto", "CDeflate"]),

        // I/O: sockets, the one HTTP server, the one HTTP client (libcurl), D-Bus.
        .target(name: "AIBudsNet", dependencies: ["AIBudsSync", "AIBudsLog"]),
        // The one HTTP/1.1 server: accept loop, bounded fair admission, head reading, Host check.
        .target(name: "AIBudsHTTPServer", dependencies: ["AIBudsSync", "AIBudsLog", "AIBudsNet", "AIBudsHTTPWire"]),
        // libcurl from Debian (libcurl4-openssl-dev): the one HTTP client's transfers (S3-compatible
        // stores, signed by its built-in AWS Signature Version 4; OpenAI-compatible servers).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libcurl's variadic setopt/getinfo, which Swift cannot call, wrapped in C.
        .target(name: "CCurlOptions", dependencies: ["CCurl"]),
        // The one HTTP client: libcurl (handles kept, bodies streamed with limits, deadlines, typed errors).
        .target(name: "AIBudsHTTPClient", dependencies: ["AIBudsSync", "AIBudsErrors", "CCurl", "CCurlOptions"]),
        // libdbus-1 (Debian's libdbus-1-dev): the D-Bus client and service code of BlueZ's API.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "AIBudsDBus", dependencies: ["AIBudsSync", "CDBus"]),

        // Engines with no SDK types: HTTP downloads, the SMP client.
        .target(name: "AIBudsTransfer", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsDigest", "AIBudsHTTPWire", "AIBudsNet",
        ]),
        .target(name: "AIBudsSMPClient", dependencies: [
            "AIBudsSync", "AIBudsErrors", "AIBudsFiles", "AIBudsLog", "AIBudsDigest", "AIBudsCBOR", "AIBudsMCUboot", "AIBudsWire", "AIBudsNet",
        ]),

        // The vendor's vocabulary, the audio value types, the device core and the import engine above it.
        .target(name: "AIBudsFoundation", dependencies: ["AIBudsSync", "AIBudsHTTPWire"]),
        // AIBudsPCM holds the value types (PCMAudio, AudioError, ReceivedAudioFrame) and links no
        // library, so the device core names them without the audio libraries.
        .target(name: "AIBudsPCM", dependencies: ["AIBudsFiles"]),
        .target(name: "AIBuds", dependencies: [
            "AIBudsSync", "AIBudsFiles", "AIBudsLog", "AIBudsFoundation", "AIBudsNet", "AIBudsPCM",
        ]),
        // The media import engine (one device, fleets into folders or object stores, hotspot
        // joining, stabilization's plugin point) above the device core it drives.
        .target(name: "AIBudsImport", dependencies: [
            "AIBudsSync", "AIBudsErrors", "AIBudsLog", "AIBudsDigest", "AIBudsWire", "AIBudsFoundation",
            "AIBudsTransfer", "AIBudsProcess", "AIBuds",
        ]),
        .target(name: "AIBudsS3", dependencies: ["AIBudsDigest", "AIBudsSync", "AIBudsHTTPClient", "AIBuds", "AIBudsTransfer", "AIBudsImport"]),

        // Link plugins and facades: SMP over UDP, its AI audio path, SMP over BlueZ, TopStep's API.
        .target(name: "AIBudsSMP", dependencies: [
            "AIBudsSync", "AIBudsFiles", "AIBudsLog", "AIBudsCBOR", "AIBudsImport", "AIBudsWire", "AIBudsFoundation", "AIBudsNet", "AIBudsSMPClient", "AIBuds",
        ]),
        // The SMP devices' AI audio path (DeviceAIAudioAPI over the Audio group, Opus): apart from
        // AIBudsSMP so that the device core links no audio library.
        .target(name: "AIBudsSMPAudio", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsWire", "AIBudsFoundation", "AIBuds", "AIBudsSMP", "AIBudsAudio",
        ]),
        .target(name: "AIBudsBlueZ", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsFoundation", "AIBudsSMPClient", "AIBuds", "AIBudsSMP", "AIBudsDBus",
        ]),
        .target(name: "TopStepComKit", dependencies: [
            "AIBudsSync", "AIBudsErrors", "AIBudsLog", "AIBudsDigest", "AIBudsWire", "AIBudsFoundation", "AIBudsSMPClient", "AIBuds",
        ]),

        // Video stabilization (FFmpeg).
        // FFmpeg's libraries from Debian (libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev).
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        // The warp's AVX2 interior sampler (C intrinsics behind a runtime CPU check).
        .target(name: "CPlaneSampler"),
        // FFmpeg's log callback takes a va_list, which Swift cannot receive: formatted in C, handed to Swift.
        .target(name: "CFFmpegLog", dependencies: ["CFFmpeg"]),
        .target(name: "AIBudsStabilization", dependencies: ["AIBudsSync", "AIBudsFiles", "AIBudsFoundation", "AIBudsLog", "AIBuds", "CFFmpeg", "CFFmpegLog", "CPlaneSampler", "AIBudsImport"]),
        // Rendered clips with known camera motion, their sidecars, and an independent motion
        // estimate: for the stabilization tests, the benchmark and the emulator's videos.
        .target(name: "AIBudsSyntheticVideo", dependencies: ["AIBudsStabilization", "CFFmpeg"]),

        // Audio: Opus and Ogg/Opus, resampling, voice activity, playback.
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        .systemLibrary(name: "COggOpus", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev", "libopusenc-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        // libpulse-simple's pkg-config flags (-D_REENTRANT -pthread) are ones SwiftPM refuses; its
        // headers are in /usr/include, so the module map alone links it.
        .systemLibrary(name: "CPulseSimple", providers: [.apt(["libpulse-dev"])]),
        // WebRTC's voice activity detector, exported by Debian's libwebrtc-audio-processing.
        .systemLibrary(name: "CWebRTCVAD", providers: [.apt(["libwebrtc-audio-processing-dev"])]),
        // ONNX Runtime's C API, opened at run time from the library onnxruntime's Python wheel ships.
        .target(name: "AIBudsONNX", dependencies: ["AIBudsSync", "AIBudsFiles"]),
        .target(name: "AIBudsAudio", dependencies: ["AIBudsPCM", "AIBudsONNX", "COpus", "COggOpus", "CSoxr", "CPulseSimple", "CWebRTCVAD"]),

        // The AI side: its vocabulary and provider protocol, the SDK core, and its providers.
        .target(name: "AIBudsAIFoundation", dependencies: ["AIBudsFoundation", "AIBudsPCM"]),
        .target(name: "AIBudsAISDK", dependencies: ["AIBudsSync", "AIBudsFoundation", "AIBudsAudio", "AIBudsAIFoundation"]),
        // libespeak-ng and PocketSphinx (Debian's libespeak-ng-dev, libpocketsphinx-dev): the offline provider.
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx", providers: [.apt(["libpocketsphinx-dev"])]),
        .target(name: "AIBudsOfflineAI", dependencies: [
            "AIBudsSync", "AIBudsFiles", "AIBudsFoundation", "AIBudsAudio", "AIBudsAIFoundation", "AIBudsProcess", "AIBudsONNX", "CEspeakNG", "CPocketSphinx",
        ]),
        .target(name: "AIBudsOpenAI", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsFoundation", "AIBudsAudio", "AIBudsAIFoundation", "AIBudsHTTPClient",
        ]),
        // The offline voice assistant: wake phrase and commands from a device's microphone.
        .target(name: "AIBudsVoiceAssistant", dependencies: [
            "AIBuds", "AIBudsFoundation", "AIBudsAudio", "AIBudsAIFoundation", "AIBudsAISDK", "AIBudsOfflineAI",
        ]),

        // Live streaming: the emulated camera (GStreamer's RTSP server, FFmpeg's encoders) and the client.
        // GStreamer's RTSP server (Debian's libgstrtspserver-1.0-dev) for the emulated camera.
        .systemLibrary(
            name: "CGStreamer", pkgConfig: "gstreamer-rtsp-server-1.0",
            providers: [.apt(["libgstrtspserver-1.0-dev"])]),
        .target(name: "AIBudsLiveCamera", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsHTTPServer", "AIBudsWire", "AIBudsNet", "AIBudsEmulator", "AIBudsStabilization",
            "AIBudsSyntheticVideo", "CFFmpeg", "CGStreamer",
        ]),
        .target(name: "AIBudsLiveStream", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsHTTPServer", "AIBudsHTTPWire", "AIBudsWire", "AIBudsNet", "CFFmpeg",
            "AIBudsStabilization",
        ]),

        // Observability: the production log destinations, the crash reporter and the AI dashboard.
        // SQLite through Debian's libsqlite3 (libsqlite3-dev): the log store and the dashboard's records.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libsystemd (libsystemd-dev): sd_journal_sendv, journald's native protocol with structured fields.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "AIBudsSQLite", dependencies: ["AIBudsSync", "CSQLite"]),
        .target(name: "AIBudsLogStore", dependencies: ["AIBudsSync", "AIBudsLog", "AIBudsSQLite", "AIBudsFiles"]),
        // The vendor's production log plugin over the store.
        .target(name: "AIBudsXLFacility", dependencies: ["AIBudsSync", "AIBudsLog", "AIBudsLogStore"]),
        .target(name: "AIBudsJournal", dependencies: ["AIBudsSync", "AIBudsLog", "CSystemd"]),
        // The fatal-signal handler, in C: only async-signal-safe calls, no Swift runtime in a handler.
        .target(name: "CCrashHandler"),
        .target(name: "AIBudsCrashReporter", dependencies: ["AIBudsSync", "AIBudsLog", "CCrashHandler"]),
        .target(name: "AIBudsAIDashboard", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsHTTPServer", "AIBudsHTTPWire", "AIBudsNet", "AIBudsSQLite", "AIBudsFiles", "AIBudsPCM",
        ]),
        // The AI SDK's session observer feeding the dashboard's recorder.
        .target(name: "AIBudsAIDashboardBridge", dependencies: [
            "AIBudsSync", "AIBudsAudio", "AIBudsAIFoundation", "AIBudsAISDK", "AIBudsAIDashboard",
        ]),

        // Bundles, the emulator and test tools.
        .target(name: "AIBudsAllInOne", dependencies: [
            "AIBuds", "AIBudsFiles", "AIBudsSMP", "AIBudsSMPAudio", "AIBudsStabilization", "AIBudsBlueZ", "AIBudsImport",
            "AIBudsLog", "AIBudsXLFacility", "AIBudsJournal", "AIBudsCrashReporter",
            "AIBudsAIFoundation", "AIBudsAISDK", "AIBudsOfflineAI", "AIBudsOpenAI",
        ]),
        .target(name: "AIBudsEmulator", dependencies: [
            "AIBudsSync", "AIBudsErrors", "AIBudsFiles", "AIBudsLog", "AIBudsHTTPServer", "AIBudsDigest", "AIBudsCBOR", "AIBudsHTTPWire", "AIBudsMCUboot", "AIBudsWire", "AIBudsFoundation", "AIBudsNet", "AIBudsDBus",
            "AIBudsAudio", "AIBudsProcess",
        ]),
        .target(name: "AIBudsTestKit", dependencies: [
            "AIBudsSync", "AIBudsProcess", "AIBudsLog", "AIBudsFoundation", "AIBudsWire", "AIBudsNet", "AIBudsSMPClient", "AIBuds", "AIBudsEmulator",
            "AIBudsAudio",
        ]),

        // Commands and benchmarks.
        // Release builds link the Swift runtime and Foundation statically: the command starts in
        // about 4 ms instead of 7 (no symbol binding across a dozen shared libraries). The
        // toolchain's lld links them (gold warns about glibc's mktemp inside static Foundation).
        .executableTarget(
            name: "aibuds",
            dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsDigest", "AIBudsWire", "AIBudsFoundation", "AIBudsNet",
            "AIBudsSMPClient", "AIBuds", "AIBudsImport", "AIBudsSMP", "AIBudsSMPAudio", "AIBudsEmulator", "TopStepComKit", "AIBudsAllInOne",
            "AIBudsStabilization", "AIBudsSyntheticVideo", "AIBudsAudio", "AIBudsS3",
            "AIBudsLiveCamera", "AIBudsLiveStream", "AIBudsProcess",
            "AIBudsAIFoundation", "AIBudsAISDK", "AIBudsOpenAI", "AIBudsOfflineAI", "AIBudsVoiceAssistant",
            "AIBudsLogStore", "AIBudsAIDashboard", "AIBudsAIDashboardBridge",
        ],
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-use-ld=lld", "-Xlinker", "--start-group"]
                        + ["Foundation", "FoundationEssentials", "FoundationInternationalization", "CoreFoundation",
                           "_FoundationICU", "_FoundationCShims", "_FoundationCollections", "swiftSynchronization",
                           "swiftDispatch", "dispatch", "BlocksRuntime", "swift_Concurrency",
                           "swift_StringProcessing",
                           "swift_RegexParser", "swift_Builtin_float", "swiftGlibc", "swiftCore", "stdc++"]
                        .flatMap { ["-Xlinker", "-l\($0)"] } + ["-Xlinker", "--end-group"],
                    .when(platforms: [.linux], configuration: .release)),
            ]),
        .executableTarget(name: "aibuds-bench-http", dependencies: [
            "AIBudsDigest", "AIBudsWire", "AIBudsNet", "AIBudsTransfer", "AIBudsSMPClient", "AIBuds",
            "AIBudsEmulator",
        ]),
        .executableTarget(name: "aibuds-bench-stabilize", dependencies: ["AIBudsStabilization", "AIBudsSyntheticVideo"]),
        .executableTarget(name: "aibuds-bench-live", dependencies: [
            "AIBudsSync", "AIBudsProcess", "AIBudsWire", "AIBudsEmulator", "AIBudsLiveCamera", "AIBudsLiveStream",
        ]),
        // The log-line cost benchmark (docs/benchmarks.md).
        .executableTarget(name: "aibuds-bench-log", dependencies: ["AIBudsLog", "AIBudsLogStore", "AIBudsJournal"]),
        // A program that installs the crash reporter and crashes in the way its argument names.
        // Linked with --export-dynamic, as an app wanting symbol names for its own code in reports is.
        .executableTarget(
            name: "aibuds-crash-child", dependencies: ["AIBudsLog", "AIBudsCrashReporter"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]),

        // Tests: each library's own target, in the order of the layers above.
        .testTarget(name: "AIBudsSyncTests", dependencies: ["AIBudsSync"]),
        .testTarget(name: "AIBudsErrorsTests", dependencies: ["AIBudsErrors"]),
        .testTarget(name: "AIBudsFilesTests", dependencies: ["AIBudsFiles"]),
        .testTarget(name: "AIBudsProcessTests", dependencies: ["AIBudsProcess", "AIBudsSync"]),
        .testTarget(name: "AIBudsLogTests", dependencies: ["AIBudsLog", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsCBORTests", dependencies: ["AIBudsCBOR", "AIBudsDigest", "AIBudsWire", "AIBudsEmulator"]),
        .testTarget(name: "AIBudsHTTPWireTests", dependencies: ["AIBudsHTTPWire"]),
        .testTarget(name: "AIBudsWireTests", dependencies: ["AIBudsCBOR", "AIBudsWire", "AIBudsDigest"]),
        .testTarget(name: "AIBudsDigestTests", dependencies: ["AIBudsDigest"]),
        .testTarget(name: "AIBudsNetTests", dependencies: ["AIBudsNet"]),
        .testTarget(name: "AIBudsDBusTests", dependencies: ["AIBudsDBus", "AIBudsEmulator", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsHTTPServerTests", dependencies: ["AIBudsHTTPServer", "AIBudsLog", "AIBudsNet", "AIBudsSync"]),
        .testTarget(name: "AIBudsHTTPClientTests", dependencies: ["AIBudsHTTPClient", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsFoundationTests", dependencies: ["AIBudsFoundation"]),
        .testTarget(name: "AIBudsTransferTests", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsDigest", "AIBudsTransfer", "AIBudsEmulator", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsSMPClientTests", dependencies: [
            "AIBudsSync", "AIBudsDigest", "AIBudsCBOR", "AIBudsMCUboot", "AIBudsWire", "AIBudsNet", "AIBudsSMPClient", "AIBudsEmulator",
            "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsTests", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsFoundation", "AIBuds", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsImportTests", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsDigest", "AIBudsWire", "AIBudsFoundation", "AIBudsNet", "AIBudsProcess", "AIBuds",
            "AIBudsImport", "AIBudsSMP", "AIBudsEmulator", "AIBudsAudio", "AIBudsS3", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsS3Tests", dependencies: ["AIBudsS3", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsSMPTests", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsDigest", "AIBudsCBOR", "AIBudsMCUboot", "AIBudsWire", "AIBudsFoundation", "AIBudsNet",
            "AIBudsSMPClient", "AIBuds", "AIBudsImport", "AIBudsSMP", "AIBudsSMPAudio", "AIBudsAudio", "AIBudsEmulator", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsBlueZTests", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsWire", "AIBudsFoundation", "AIBudsNet", "AIBudsSMPClient", "AIBuds",
            "AIBudsSMP", "AIBudsEmulator", "AIBudsTestKit", "AIBudsBlueZ", "AIBudsDBus", "TopStepComKit",
        ]),
        .testTarget(name: "TopStepComKitTests", dependencies: [
            "AIBudsSync", "AIBudsLog", "AIBudsCBOR", "AIBudsWire", "AIBudsFoundation", "AIBudsNet", "AIBudsSMPClient", "AIBuds",
            "AIBudsSMP", "AIBudsEmulator", "TopStepComKit", "AIBudsAllInOne", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsAllInOneTests", dependencies: [
            "AIBuds", "AIBudsAISDK", "AIBudsAllInOne", "AIBudsBlueZ", "AIBudsCrashReporter", "AIBudsImport", "AIBudsLog", "AIBudsLogStore", "AIBudsSMP",
            "AIBudsStabilization", "AIBudsSync", "AIBudsTestKit", "AIBudsXLFacility",
        ]),
        .testTarget(name: "AIBudsStabilizationTests", dependencies: [
            "AIBudsSync", "AIBudsFoundation", "AIBuds", "AIBudsTestKit", "AIBudsSyntheticVideo", "AIBudsEmulator",
            "AIBudsProcess", "AIBudsStabilization", "AIBudsImport",
        ]),
        .testTarget(name: "AIBudsSyntheticVideoTests", dependencies: ["AIBudsStabilization", "AIBudsSyntheticVideo", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsAudioTests", dependencies: ["AIBudsAudio", "AIBudsEmulator", "AIBudsProcess", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsLiveStreamTests", dependencies: [
            "AIBudsSync", "AIBudsWire", "AIBudsNet", "AIBudsFoundation", "AIBudsEmulator", "AIBudsTestKit",
            "AIBudsLiveCamera", "AIBudsLiveStream", "AIBudsStabilization", "AIBudsSyntheticVideo", "AIBudsProcess",
        ]),
        .testTarget(name: "AIBudsLiveCameraTests", dependencies: ["AIBudsEmulator", "AIBudsLiveCamera", "AIBudsTestKit", "AIBudsWire"]),
        .testTarget(name: "AIBudsSQLiteTests", dependencies: ["AIBudsSQLite"]),
        .testTarget(name: "AIBudsJournalTests", dependencies: ["AIBudsJournal", "AIBudsLog", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsXLFacilityTests", dependencies: [
            "AIBudsLog", "AIBudsLogStore", "AIBudsSQLite", "AIBudsXLFacility", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsLogStoreTests", dependencies: [
            "AIBudsLog", "AIBudsLogStore", "AIBudsSQLite", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsCrashReporterTests", dependencies: ["AIBudsCrashReporter", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsAIDashboardTests", dependencies: [
            "AIBudsAIDashboard", "AIBudsAudio", "AIBudsLog", "AIBudsNet", "AIBudsProcess", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsAIDashboardBridgeTests", dependencies: [
            "AIBudsAudio", "AIBudsAIFoundation", "AIBudsAIDashboard", "AIBudsAIDashboardBridge", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsEmulatorTests", dependencies: [
            "AIBudsSync", "AIBudsDigest", "AIBudsCBOR", "AIBudsHTTPWire", "AIBudsMCUboot", "AIBudsWire", "AIBudsFoundation", "AIBudsNet", "AIBudsSMPClient",
            "AIBudsEmulator", "AIBudsLog", "AIBudsTestKit", "AIBudsAudio", "AIBudsProcess",
        ]),
        .testTarget(name: "AIBudsONNXTests", dependencies: ["AIBudsONNX"]),
        .testTarget(name: "AIBudsAIFoundationTests", dependencies: ["AIBudsAIFoundation"]),
        .testTarget(name: "AIBudsAITests", dependencies: ["AIBudsAIFoundation", "AIBudsAudio", "AIBudsOfflineAI", "AIBudsProcess", "AIBudsTestKit"]),
        .testTarget(name: "AIBudsAISDKTests", dependencies: [
            "AIBudsSync", "AIBudsFoundation", "AIBudsAudio", "AIBudsAIFoundation", "AIBudsAISDK", "AIBudsOpenAI",
            "AIBudsOfflineAI", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsOpenAITests", dependencies: [
            "AIBudsAIFoundation", "AIBudsAudio", "AIBudsLog", "AIBudsOpenAI", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsOfflineAITests", dependencies: [
            "AIBudsAIFoundation", "AIBudsAudio", "AIBudsOfflineAI", "AIBudsTestKit",
        ]),
        .testTarget(name: "AIBudsVoiceAssistantTests", dependencies: [
            "AIBudsAIFoundation", "AIBudsOfflineAI", "AIBudsVoiceAssistant", "AIBudsTestKit",
        ]),
        // The vendor's media import example must compile unchanged in the Swift 5 language mode too.
        .testTarget(
            name: "ImportSwift5Tests", dependencies: ["AIBudsFoundation", "AIBuds"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "AIBudsObservabilityCLITests", dependencies: [
            "AIBudsLog", "AIBudsLogStore", "AIBudsAIDashboard", "AIBudsTestKit",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
