import AIBudsFoundation

extension AIBudsSDK {
    /// The domain of every SDK `NSError`, `"AIBudsSDK.ErrorDomain"`.
    public static let ErrorDomain = AIBudsErrorDomain
    /// The notification `userInfo` key of an `NSError` (for example in `scanningStartFailed`).
    public static let ErrorKey = "AIBudsSDK.ErrorKey"
    /// The notification `userInfo` key of a found device (`deviceFound`, `deviceUpdate`).
    public static let FoundDeviceKey = "AIBudsSDK.FoundDeviceKey"
}
