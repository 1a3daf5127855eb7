"""An independent stand-in of BlueZ's D-Bus API for one BLE device that speaks SMP over GATT.

Written from BlueZ's documentation (org.bluez.Adapter, org.bluez.Device, org.bluez.GattService,
org.bluez.GattCharacteristic), not from this project's Swift stand-in, so that the SDK is tried
against what BlueZ documents rather than against what the project assumes. It offers only the
oldest data path: `WriteValue` and `StartNotify` with notifications as `PropertiesChanged` of
`Value`; `AcquireWrite` and `AcquireNotify` answer `org.bluez.Error.NotSupported` (BlueZ before
5.46, and some controllers).

The device behind it is an SMP server on UDP (the project's emulator): each SMP packet written to
the characteristic (put together from its 8-byte header's length) goes to that server as one
datagram, and each answer comes back as notifications of at most ATT MTU - 3 bytes. The device's
BLE address and alias are given here and may differ from the MAC and name it reports over SMP,
as a real device's often do (a random BLE address, a user-set alias).

Usage (the bus from DBUS_SYSTEM_BUS_ADDRESS):
    python3 standin.py --address C0:FF:EE:12:34:56 --alias "Running Watch" --smp 127.0.0.1:PORT [--mtu 247]
Prints "ready" on its standard output once org.bluez is owned.
"""

import argparse
import os
import socket
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

BLUEZ = "org.bluez"
PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
SMP_SERVICE = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"
SMP_CHARACTERISTIC = "da2e7828-fbce-4e01-ae9e-261174997c48"


class BlueZError(dbus.DBusException):
    def __init__(self, name, message):
        super().__init__(message)
        self._dbus_error_name = "org.bluez.Error." + name


class Object(dbus.service.Object):
    """An exported object with properties per interface, their Get/GetAll/Set and change signals."""

    def __init__(self, bus, path, interface, properties):
        super().__init__(bus, path)
        self.path = path
        self.interface = interface
        self.properties = properties

    def set(self, **changed):
        self.properties.update(changed)
        self.PropertiesChanged(self.interface, changed, [])

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface != self.interface or name not in self.properties:
            raise dbus.DBusException("no property " + name, name="org.freedesktop.DBus.Error.InvalidArgs")
        return self.properties[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties if interface == self.interface else {}

    @dbus.service.method(PROPERTIES, in_signature="ssv")
    def Set(self, interface, name, value):
        raise dbus.DBusException("read-only", name="org.freedesktop.DBus.Error.PropertyReadOnly")

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Root(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/")
        self.objects = []

    def add(self, obj):
        self.objects.append(obj)
        self.InterfacesAdded(dbus.ObjectPath(obj.path), {obj.interface: obj.properties})

    def remove(self, obj):
        self.objects.remove(obj)
        self.InterfacesRemoved(dbus.ObjectPath(obj.path), [obj.interface])

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return {dbus.ObjectPath(o.path): {o.interface: o.properties} for o in self.objects}

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--alias", required=True)
    parser.add_argument("--smp", required=True, help="HOST:PORT of the device's SMP server on UDP")
    parser.add_argument("--mtu", type=int, default=247)
    args = parser.parse_args()
    host, port = args.smp.rsplit(":", 1)
    smp_server = (host, int(port))

    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(os.environ["DBUS_SYSTEM_BUS_ADDRESS"])
    root = Root(bus)
    adapter_path = "/org/bluez/hci0"
    device_path = adapter_path + "/dev_" + args.address.upper().replace(":", "_")
    service_path = device_path + "/service0020"
    characteristic_path = service_path + "/char0021"

    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.connect(smp_server)
    state = {"written": b""}

    class Characteristic(Object):
        @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="ay")
        def ReadValue(self, options):
            return self.properties["Value"]

        @dbus.service.method(CHARACTERISTIC, in_signature="aya{sv}")
        def WriteValue(self, value, options):
            if not device.properties["Connected"]:
                raise BlueZError("Failed", "Not connected")
            if len(value) > args.mtu - 3:
                raise BlueZError("InvalidValueLength", "Invalid Length")
            # SMP over GATT: a packet may span several writes; its header says how long it is.
            state["written"] += bytes(value)
            while len(state["written"]) >= 8:
                length = 8 + (state["written"][2] << 8 | state["written"][3])
                if len(state["written"]) < length:
                    break
                udp.send(state["written"][:length])
                state["written"] = state["written"][length:]

        @dbus.service.method(CHARACTERISTIC)
        def StartNotify(self):
            if not device.properties["Connected"]:
                raise BlueZError("Failed", "Not connected")
            if not self.properties["Notifying"]:
                self.set(Notifying=dbus.Boolean(True))

        @dbus.service.method(CHARACTERISTIC)
        def StopNotify(self):
            if self.properties["Notifying"]:
                self.set(Notifying=dbus.Boolean(False))

        @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="hq")
        def AcquireWrite(self, options):
            raise BlueZError("NotSupported", "Operation is not supported")

        @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="hq")
        def AcquireNotify(self, options):
            raise BlueZError("NotSupported", "Operation is not supported")

    def notify(data):
        if device.properties["Connected"] and characteristic.properties["Notifying"]:
            step = args.mtu - 3
            for start in range(0, len(data), step):
                characteristic.set(Value=dbus.Array(data[start:start + step], signature="y"))

    def answer(source, condition):
        udp.setblocking(False)
        try:
            notify(udp.recv(65536))
        except BlockingIOError:
            pass
        return True

    GLib.io_add_watch(udp.fileno(), GLib.IO_IN, answer)

    class Device(Object):
        @dbus.service.method(DEVICE)
        def Connect(self):
            if self.properties["Connected"]:
                raise BlueZError("AlreadyConnected", "Already Connected")
            self.set(Connected=dbus.Boolean(True))
            if service not in root.objects:
                root.add(service)
                root.add(characteristic)
            GLib.timeout_add(50, lambda: self.set(ServicesResolved=dbus.Boolean(True)) and False)

        @dbus.service.method(DEVICE)
        def Disconnect(self):
            if characteristic.properties["Notifying"]:
                characteristic.set(Notifying=dbus.Boolean(False))
            state["written"] = b""
            self.set(ServicesResolved=dbus.Boolean(False))
            self.set(Connected=dbus.Boolean(False))

        @dbus.service.method(DEVICE)
        def Pair(self):
            if self.properties["Paired"]:
                raise BlueZError("AlreadyExists", "Already Exists")
            self.set(Paired=dbus.Boolean(True), Bonded=dbus.Boolean(True))

    class Adapter(Object):
        @dbus.service.method(ADAPTER)
        def StartDiscovery(self):
            self.set(Discovering=dbus.Boolean(True))
            if device not in root.objects:
                root.add(device)
            else:
                device.set(RSSI=dbus.Int16(-55))

        @dbus.service.method(ADAPTER)
        def StopDiscovery(self):
            self.set(Discovering=dbus.Boolean(False))

        @dbus.service.method(ADAPTER, in_signature="a{sv}")
        def SetDiscoveryFilter(self, properties):
            pass

        @dbus.service.method(ADAPTER, out_signature="as")
        def GetDiscoveryFilters(self):
            return ["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData"]

        @dbus.service.method(ADAPTER, in_signature="o")
        def RemoveDevice(self, path):
            if path == device_path and device in root.objects:
                for obj in (characteristic, service, device):
                    if obj in root.objects:
                        root.remove(obj)

    adapter = Adapter(bus, adapter_path, ADAPTER, {
        "Address": "00:1A:7D:DA:71:13", "AddressType": "public", "Name": "standin", "Alias": "standin",
        "Powered": dbus.Boolean(True), "Discoverable": dbus.Boolean(False), "Pairable": dbus.Boolean(True),
        "Discovering": dbus.Boolean(False), "UUIDs": dbus.Array([], signature="s"),
    })
    device = Device(bus, device_path, DEVICE, {
        "Address": args.address.upper(), "AddressType": "random", "Name": args.alias, "Alias": args.alias,
        "Adapter": dbus.ObjectPath(adapter_path), "Paired": dbus.Boolean(False), "Bonded": dbus.Boolean(False),
        "Trusted": dbus.Boolean(False), "Blocked": dbus.Boolean(False), "LegacyPairing": dbus.Boolean(False),
        "Connected": dbus.Boolean(False), "ServicesResolved": dbus.Boolean(False), "RSSI": dbus.Int16(-55),
        "UUIDs": dbus.Array([SMP_SERVICE], signature="s"),
    })
    service = Object(bus, service_path, SERVICE, {
        "UUID": SMP_SERVICE, "Device": dbus.ObjectPath(device_path), "Primary": dbus.Boolean(True),
    })
    characteristic = Characteristic(bus, characteristic_path, CHARACTERISTIC, {
        "UUID": SMP_CHARACTERISTIC, "Service": dbus.ObjectPath(service_path),
        "Value": dbus.Array([], signature="y"), "Notifying": dbus.Boolean(False),
        "Flags": dbus.Array(["write-without-response", "notify"], signature="s"), "MTU": dbus.UInt16(args.mtu),
    })
    root.add(adapter)
    name = dbus.service.BusName(BLUEZ, bus)  # owned while referenced
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name


if __name__ == "__main__":
    sys.exit(main())
