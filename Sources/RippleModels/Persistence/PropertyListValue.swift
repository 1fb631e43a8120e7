import Foundation

/// A type `UserDefaults` stores natively: numbers, strings, booleans, data, dates, and
/// arrays and dictionaries of them.
///
/// ``Persisted`` stores these as they are; other `Codable` types are stored as JSON data.
public protocol PropertyListValue: Codable, Sendable {
    /// The value a store returned for this type, or `nil` if it holds something else or a
    /// value this type cannot hold exactly.
    ///
    /// Numbers come back from `UserDefaults` as `NSNumber` on some platforms; the numeric
    /// types convert them only when the conversion is exact (an `Int` is not read from 3.7,
    /// a `Bool` not from 2). ``Persisted`` reports a `nil` as a ``PersistenceError``.
    static func _fromPropertyList(_ object: Any) -> Self?
}

extension PropertyListValue {
    /// The object itself, if it has this type.
    public static func _fromPropertyList(_ object: Any) -> Self? { object as? Self }
}

extension Bool: PropertyListValue {
    /// A boolean, or the integer 0 or 1; `nil` for any other number.
    public static func _fromPropertyList(_ object: Any) -> Bool? { _PropertyListNumber(object)?.exactBool }
}
extension Int: PropertyListValue {
    /// An integer, or a floating-point number with an integral value in range; `nil` for 3.7,
    /// 1e300 or a boolean.
    public static func _fromPropertyList(_ object: Any) -> Int? {
        _PropertyListNumber(object)?.exactInt64.flatMap { Int(exactly: $0) }
    }
}
extension Int64: PropertyListValue {
    /// A 64-bit integer, or a floating-point number with an integral value in range.
    public static func _fromPropertyList(_ object: Any) -> Int64? { _PropertyListNumber(object)?.exactInt64 }
}
extension Double: PropertyListValue {
    /// A double, a float, or an integer a double holds exactly.
    public static func _fromPropertyList(_ object: Any) -> Double? { _PropertyListNumber(object)?.exactDouble }
}
extension Float: PropertyListValue {
    /// A float, or a double or integer that is exactly (or, for a double, in its shortest
    /// decimal form) a float's value; `nil` for a double out of `Float`'s range.
    public static func _fromPropertyList(_ object: Any) -> Float? { _PropertyListNumber(object)?.exactFloat }
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
