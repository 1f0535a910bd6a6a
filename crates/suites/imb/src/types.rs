//! The element types of IMB-MPI1's messages (today's IMB's `-data_type` and
//! `-red_data_type`): which Rust type and MPI datatype carry them, and their arithmetic
//! (the sums a check expects).

use paw_core::mpi::datatype::Equivalence;

/// An element type a message is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    /// Bytes (`byte`: MPI_BYTE's size, passed as MPI_UINT8_T).
    Byte,
    /// `char`: MPI_CHAR's size, passed as MPI_INT8_T, on which MPI_SUM is defined.
    Char,
    /// `int`: MPI_INT, passed as MPI_INT32_T (a C int here).
    Int,
    /// `float`: MPI_FLOAT.
    Float,
    /// `double`: MPI_DOUBLE.
    Double,
}

impl Element {
    /// Every element type, in [`Element::index`] order.
    pub const ALL: [Element; 5] =
        [Element::Byte, Element::Char, Element::Int, Element::Float, Element::Double];

    /// Its position in [`Element::ALL`] (the per-type tables of kernels).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        [1, 1, 4, 4, 8][self.index()]
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        ["byte", "char", "int", "float", "double"][self.index()]
    }

    /// The header's name: Intel's, and the datatype paw passes where it differs.
    pub fn header(self) -> &'static str {
        [
            "MPI_BYTE",
            "MPI_CHAR (passed as MPI_INT8_T)",
            "MPI_INT (passed as MPI_INT32_T)",
            "MPI_FLOAT",
            "MPI_DOUBLE",
        ][self.index()]
    }

    /// Whether sums of it are exact (integers add with wrap-around).
    pub fn integer(self) -> bool {
        matches!(self, Element::Byte | Element::Char | Element::Int)
    }

    /// The relative rounding of one addition (0 for integers).
    pub fn epsilon(self) -> f64 {
        match self {
            Element::Float => f32::EPSILON as f64,
            Element::Double => f64::EPSILON,
            _ => 0.0,
        }
    }

    /// Reads `-data_type` (`reduction` false) or `-red_data_type` values.
    pub fn parse(v: &str, reduction: bool) -> Result<Element, String> {
        let taken = if reduction { &Element::ALL[1..] } else { &Element::ALL[..] };
        let names: Vec<&str> = taken.iter().map(|e| e.name()).collect();
        if v == "float16" || v == "bfloat16" {
            return Err(format!(
                "takes {}; {v} needs the MPIX_C_FLOAT16 or MPIX_C_BF16 extension types, which \
                 paw does not pass",
                names.join(", ")
            ));
        }
        taken
            .iter()
            .copied()
            .find(|e| e.name() == v)
            .ok_or_else(|| format!("takes {}", names.join(", ")))
    }

    /// `a + b` in this type's arithmetic (wrapping for integers), as f64.
    pub fn add(self, a: f64, b: f64) -> f64 {
        match self {
            Element::Byte => (a as u8).wrapping_add(b as u8) as f64,
            Element::Char => (a as i8).wrapping_add(b as i8) as f64,
            Element::Int => (a as i32).wrapping_add(b as i32) as f64,
            Element::Float => ((a as f32) + (b as f32)) as f64,
            Element::Double => a + b,
        }
    }

    /// The element at the start of `bytes`, as f64.
    pub fn read(self, bytes: &[u8]) -> f64 {
        let four = || -> [u8; 4] { bytes[..4].try_into().expect("4 bytes") };
        match self {
            Element::Byte => bytes[0] as f64,
            Element::Char => bytes[0] as i8 as f64,
            Element::Int => i32::from_le_bytes(four()) as f64,
            Element::Float => f32::from_le_bytes(four()) as f64,
            Element::Double => f64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
        }
    }
}

/// A Rust type that carries an [`Element`].
///
/// # Safety
/// Implement only for plain number types: every bit pattern is a valid value, so
/// a message buffer may view any of its bytes as elements of the type.
pub unsafe trait Elem: Equivalence + Copy + 'static {
    /// Which element it carries.
    const ELEMENT: Element;
    /// `v`, a whole number or a float, in this type.
    fn from_f64(v: f64) -> Self;
}

macro_rules! elem {
    ($($t:ty => $e:ident),*) => {$(
        // SAFETY: a primitive number type; every bit pattern is a valid value.
        unsafe impl Elem for $t {
            const ELEMENT: Element = Element::$e;
            fn from_f64(v: f64) -> Self {
                v as $t
            }
        }
    )*};
}
elem!(u8 => Byte, i8 => Char, i32 => Int, f32 => Float, f64 => Double);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sizes_and_refusals() {
        for e in Element::ALL {
            assert_eq!(Element::ALL[e.index()], e);
            assert_eq!(Element::parse(e.name(), false), Ok(e));
        }
        assert_eq!(Element::Double.size(), 8);
        assert!(Element::parse("byte", true).is_err(), "reductions take no byte");
        let e = Element::parse("float16", false).unwrap_err();
        assert!(e.contains("MPIX_C_FLOAT16"), "{e}");
        assert_eq!(Element::parse("long", true).unwrap_err(), "takes char, int, float, double");
    }

    #[test]
    fn integer_values_wrap_and_read_back() {
        assert_eq!(Element::Char.add(100.0, 100.0), -56.0);
        assert_eq!(Element::Int.read(&(-5i32).to_le_bytes()), -5.0);
        assert_eq!(Element::Double.read(&2.5f64.to_le_bytes()), 2.5);
    }
}
