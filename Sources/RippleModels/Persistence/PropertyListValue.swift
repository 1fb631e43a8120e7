import Foundation

/// A type `UserDefaults` stores natively: numbers, strings, booleans, data, dates, and
/// arrays and dictionaries of them.
///
/// ``Persisted`` stores these as they are; other `Codable` types are stored as JSON data.
public protocol PropertyListValue: Codable, Sendable {
    /// The value a store returned for this type, or `nil` if it holds something else.
    ///
    /// Numbers come back from `UserDefaults` as `NSNumber` on some platforms; the numeric
    /// types convert them.
    static func _fromPropertyList(_ object: Any) -> Self?
}

extension PropertyListValue {
    /// The object itself, if it has this type.
    public static func _fromPropertyList(_ object: Any) -> Self? { object as? Self }
}

extension Bool: PropertyListValue {
    /// A boolean, or a number read back as one.
    public static func _fromPropertyList(_ object: Any) -> Bool? { object as? Bool ?? (object as? NSNumber)?.boolValue }
}
extension Int: PropertyListValue {
    /// An integer, or a number read back as one.
    public static func _fromPropertyList(_ object: Any) -> Int? { object as? Int ?? (object as? NSNumber)?.intValue }
}
extension Int64: PropertyListValue {
    /// A 64-bit integer, or a number read back as one.
    public static func _fromPropertyList(_ object: Any) -> Int64? { object as? Int64 ?? (object as? NSNumber)?.int64Value }
}
extension Double: PropertyListValue {
    /// A double, or a number read back as one.
    public static func _fromPropertyList(_ object: Any) -> Double? { object as? Double ?? (object as? NSNumber)?.doubleValue }
}
extension Float: PropertyListValue {
    /// A float, or a number read back as one.
    public static func _fromPropertyList(_ object: Any) -> Float? { object as? Float ?? (object as? NSNumber)?.floatValue }
}
extension String: PropertyListValue {}
extension Data: PropertyListValue {}
extension Date: PropertyListValue {}
extension Array: PropertyListValue where Element: PropertyListValue {
    /// An array whose every element converts.
    public static func _fromPropertyList(_ object: Any) -> [Element]? {
        guard let objects = object as? [Any] else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(objects.count)
        for object in objects {
            guard let element = Element._fromPropertyList(object) else { return nil }
            elements.append(element)
        }
        return elements
    }
}
extension Dictionary: PropertyListValue where Key == String, Value: PropertyListValue {
    /// A dictionary whose every value converts.
    public static func _fromPropertyList(_ object: Any) -> [String: Value]? {
        guard let objects = object as? [String: Any] else { return nil }
        var values: [String: Value] = [:]
        for (key, object) in objects {
            guard let value = Value._fromPropertyList(object) else { return nil }
            values[key] = value
        }
        return values
    }
}
