import AIBudsAIFoundation
import AIBudsFoundation
import AIBudsSync
import Foundation

/// The AI side's entry point: loads the provider plugins, selects one, starts sessions (chat,
/// AI audio recording, simultaneous interpretation) and runs the one-shot text and speech calls.
///
/// Select a provider before any AI call: `setAIServiceVendor(.starBurst)` or `.mltcloud` routes
/// to the plugin registered for that vendor; `setAIProvider(named:)` picks one of the project's
/// own providers (`openai`, `offline`) without a vendor. Every call routes to the selection made
/// when it starts; a missing plugin is `AIError(.providerUnavailable)`, nothing selected
/// `AIError(.noProviderSelected)`.
public enum AIBudsAISDK {
    /// The error domain of the AI side's `NSError`s.
    public static let ErrorDomain = AIBudsAIErrorDomain

    struct State {
        var initialized = false
        var plugins: [any AIConnectSDK] = []
        var vendor: AIServiceVendor = .none
        var providerName: String?
        var observers: [ObjectIdentifier: any AISessionObserver] = [:]
        var authUserId: String?
        var authParams: AIAuthParams?
    }

    static let state = Locked(State())

    /// Loads the provider plugins (replacing any loaded before); names must be unique.
    public static func initialize(aiSDKs: [any AIConnectSDK]) throws {
        var seen = Set<String>()
        for plugin in aiSDKs where !seen.insert(plugin.providerName).inserted {
            throw AIError(.invalidParameters, "two AI plugins are named '\(plugin.providerName)'")
        }
        state.withLock {
            $0.plugins = aiSDKs
            $0.initialized = true
        }
    }

    /// Unloads every plugin and forgets the selection and observers (for tests and shutdown).
    public static func reset() {
        state.withLock { $0 = State() }
    }

    /// The loaded plugins, in the order they were given.
    public static var aiSDKs: [any AIConnectSDK] { state.withLock { $0.plugins } }

    /// Selects the provider by vendor: calls route to the plugin whose `vendor` is `vendor`;
    /// `.none` clears the selection. A named selection (`setAIProvider(named:)`) is replaced.
    public static func setAIServiceVendor(_ vendor: AIServiceVendor) {
        state.withLock {
            $0.vendor = vendor
            $0.providerName = nil
        }
    }

    /// The vendor last selected (`.none` when a provider was chosen by name or nothing was).
    public static var aiServiceVendor: AIServiceVendor { state.withLock { $0.vendor } }

    /// Selects a provider by its `providerName` (the project's own providers, which serve no
    /// vendor); `nil` goes back to the vendor selection.
    public static func setAIProvider(named name: String?) {
        state.withLock {
            $0.providerName = name
            if name != nil { $0.vendor = .none }
        }
    }

    /// Remembers the AI credentials and end user (as `ConnectParams` carries them); each later
    /// call passes them to the selected plugin's `authorize` before it starts.
    public static func setAuth(userId: String?, params: AIAuthParams?) {
        state.withLock {
            $0.authUserId = userId
            $0.authParams = params
        }
    }

    /// The plugin that the current selection routes to, or the reason there is none.
    public static func selectedProvider() throws -> any AIConnectSDK {
        let s = state.withLock { $0 }
        guard s.initialized else { throw AIError(.notInitialized) }
        if let name = s.providerName {
            guard let plugin = s.plugins.first(where: { $0.providerName == name }) else {
                let known = s.plugins.map(\.providerName).joined(separator: ", ")
                throw AIError(.providerUnavailable, "no AI plugin named '\(name)' is loaded (loaded: \(known.isEmpty ? "none" : known))")
            }
            return plugin
        }
        guard s.vendor != .none else {
            throw AIError(.noProviderSelected, "no AI provider selected: call setAIServiceVendor(_:) or setAIProvider(named:)")
        }
        guard let plugin = s.plugins.first(where: { $0.vendor == s.vendor }) else {
            throw AIError(.providerUnavailable, Self.missingVendorPlugin(s.vendor))
        }
        return plugin
    }

    /// Why a vendor's calls cannot run without its plugin, and what an app does about it.
    static func missingVendorPlugin(_ vendor: AIServiceVendor) -> String {
        let who: String
        switch vendor {
        case .starBurst: who = "StarBurst AI (ByteDance)"
        case .mltcloud: who = "MltCloud AI (Meilc)"
        default: who = "\(vendor)"
        }
        return "no AIConnectSDK plugin is registered for vendor \(vendor): \(who) publishes no API this SDK can implement, "
            + "so its calls need the vendor's own plugin (an AIConnectSDK whose vendor is .\(vendor), loaded with "
            + "AIBudsAISDK.initialize(aiSDKs:)); setAIProvider(named: \"offline\") or \"openai\" selects one of this SDK's providers"
    }

    /// The selected plugin, authorized and checked for `needed`.
    static func provider(for needed: AICapabilities) async throws -> any AIConnectSDK {
        let plugin = try selectedProvider()
        guard plugin.capabilities.isSuperset(of: needed) else {
            throw AIError(.capabilityUnsupported, "AI provider '\(plugin.providerName)' cannot do \(describe(needed.subtracting(plugin.capabilities)))")
        }
        let auth = state.withLock { ($0.authUserId, $0.authParams) }
        do { try await plugin.authorize(userId: auth.0, params: auth.1) } catch { throw AIError.from(error) }
        return plugin
    }

    static func describe(_ capabilities: AICapabilities) -> String {
        let names: [(AICapabilities, String)] = [
            (.transcription, "transcription"), (.chat, "chat"), (.speech, "speech"), (.translation, "translation"),
            (.summary, "summary"), (.intents, "intents"),
        ]
        return names.filter { capabilities.contains($0.0) }.map(\.1).joined(separator: ", ")
    }

    // MARK: Observers

    /// Adds an observer of every session started from now on (kept strongly until removed).
    public static func addSessionObserver(_ observer: any AISessionObserver) {
        state.withLock { $0.observers[ObjectIdentifier(observer)] = observer }
    }

    /// Removes an observer added with `addSessionObserver(_:)`.
    public static func removeSessionObserver(_ observer: any AISessionObserver) {
        state.withLock { _ = $0.observers.removeValue(forKey: ObjectIdentifier(observer)) }
    }

    static var observers: [any AISessionObserver] { state.withLock { Array($0.observers.values) } }
}
