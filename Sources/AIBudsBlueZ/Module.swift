// docs: the BlueZ (Bluetooth LE over D-Bus) link plugin of the SDK.
