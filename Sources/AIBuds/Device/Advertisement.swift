import Foundation

/// The keys of the `advertisementData` dictionaries, spelled as CoreBluetooth spells them.
public enum AdvertisementDataKey {
    /// The advertised local name (`String`).
    public static let localName = "kCBAdvDataLocalName"
    /// The manufacturer-specific data (`Data`).
    public static let manufacturerData = "kCBAdvDataManufacturerData"
    /// The advertised service UUIDs (`[String]`).
    public static let serviceUUIDs = "kCBAdvDataServiceUUIDs"
    /// Whether the device accepts connections (`NSNumber`, Boolean).
    public static let isConnectable = "kCBAdvDataIsConnectable"
    /// The transmit power level in dBm (`NSNumber`).
    public static let txPowerLevel = "kCBAdvDataTxPowerLevel"
    /// Service data by service UUID (`[String: Data]`; CoreBluetooth keys it by `CBUUID`).
    public static let serviceData = "kCBAdvDataServiceData"
}

/// What a device advertises, as a typed, storable value; ``dictionary`` gives the vendor's
/// `[String: Any]` shape.
public struct Advertisement: Hashable, Codable, Sendable {
    /// The advertised name.
    public var localName: String?
    /// Manufacturer-specific data.
    public var manufacturerData: Data?
    /// Advertised service UUIDs.
    public var serviceUUIDs: [String]
    /// Whether the device accepts connections.
    public var isConnectable: Bool
    /// Transmit power in dBm, when advertised.
    public var txPowerLevel: Int?
    /// Service data by upper-case service UUID; nil (as in records stored before it existed) or
    /// empty when none was advertised.
    public var serviceData: [String: Data]?

    /// Creates the advertisement a link plugin reports for a found peripheral; every field may be
    /// absent, as on a real link.
    public init(
        localName: String? = nil, manufacturerData: Data? = nil, serviceUUIDs: [String] = [],
        isConnectable: Bool = true, txPowerLevel: Int? = nil, serviceData: [String: Data]? = nil
    ) {
        self.localName = localName
        self.manufacturerData = manufacturerData
        self.serviceUUIDs = serviceUUIDs
        self.isConnectable = isConnectable
        self.txPowerLevel = txPowerLevel
        self.serviceData = serviceData
    }

    /// Reads the known keys of an `advertisementData` dictionary.
    public init(dictionary: [String: Any]?) {
        let dictionary = dictionary ?? [:]
        self.init(
            localName: dictionary[AdvertisementDataKey.localName] as? String,
            manufacturerData: dictionary[AdvertisementDataKey.manufacturerData] as? Data,
            serviceUUIDs: dictionary[AdvertisementDataKey.serviceUUIDs] as? [String] ?? [],
            isConnectable: (dictionary[AdvertisementDataKey.isConnectable] as? NSNumber)?.boolValue
                ?? (dictionary[AdvertisementDataKey.isConnectable] as? Bool) ?? true,
            txPowerLevel: (dictionary[AdvertisementDataKey.txPowerLevel] as? NSNumber)?.intValue
                ?? (dictionary[AdvertisementDataKey.txPowerLevel] as? Int),
            serviceData: dictionary[AdvertisementDataKey.serviceData] as? [String: Data])
    }

    /// The advertisement as the vendor's `advertisementData` dictionary.
    public var dictionary: [String: Any] {
        var result: [String: Any] = [AdvertisementDataKey.isConnectable: NSNumber(value: isConnectable)]
        if let localName { result[AdvertisementDataKey.localName] = localName }
        if let manufacturerData { result[AdvertisementDataKey.manufacturerData] = manufacturerData }
        if !serviceUUIDs.isEmpty { result[AdvertisementDataKey.serviceUUIDs] = serviceUUIDs }
        if let txPowerLevel { result[AdvertisementDataKey.txPowerLevel] = NSNumber(value: txPowerLevel) }
        if let serviceData, !serviceData.isEmpty { result[AdvertisementDataKey.serviceData] = serviceData }
        return result
    }
}
