import AIBuds
extension AIBudsSDK {
    /// Registers the video stabilization plugin that media imports use (`nil` removes it).
    public static func setVideoStabilizationPlugin(_ plugin: (any VideoStabilizationPlugin)?) {
        VideoStabilizationRegistry.shared.plugin = plugin
    }

    /// Whether SDK-managed video stabilization is switched off; imported six-axis files then come
    /// back `.disabled` so that the app can stabilize them itself.
    public static var isVideoStabilizationDisabled: Bool {
        get { VideoStabilizationRegistry.shared.isDisabled }
        set { VideoStabilizationRegistry.shared.isDisabled = newValue }
    }
}
