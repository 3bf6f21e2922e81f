(module
  (import "env" "memory" (memory 1))
  ;; The kernel of search/dot.ts; `npx tsx scripts/dot-wasm.ts` assembles it into dot-wasm.ts.
  ;; out[r] = the dot product of row r of the matrix at `rows` (n rows of `dims` floats, dims a multiple
  ;; of 4) with the query at `q`, for r < n, as f64; summed as the JavaScript loop in vector.ts sums
  ;; (four accumulators by lane, each product and sum in f64; then ((s0 + s1) + s2) + s3), so both give
  ;; the same bits.
  (func (export "scores") (param $rows i32) (param $q i32) (param $n i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $d i32) (local $bytes i32) (local $lo v128) (local $hi v128) (local $x v128) (local $y v128)
    (local.set $bytes (i32.shl (local.get $dims) (i32.const 2)))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $n)))
        (local.set $lo (v128.const f64x2 0 0))
        (local.set $hi (v128.const f64x2 0 0))
        (local.set $d (i32.const 0))
        (block $end
          (loop $col
            (br_if $end (i32.ge_u (local.get $d) (local.get $bytes)))
            (local.set $x (v128.load (i32.add (local.get $rows) (local.get $d))))
            (local.set $y (v128.load (i32.add (local.get $q) (local.get $d))))
            (local.set $lo (f64x2.add (local.get $lo)
              (f64x2.mul (f64x2.promote_low_f32x4 (local.get $x)) (f64x2.promote_low_f32x4 (local.get $y)))))
            (local.set $hi (f64x2.add (local.get $hi)
              (f64x2.mul
                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))
                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $y) (local.get $y))))))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (br $col)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3)))
          (f64.add
            (f64.add
              (f64.add (f64x2.extract_lane 0 (local.get $lo)) (f64x2.extract_lane 1 (local.get $lo)))
              (f64x2.extract_lane 0 (local.get $hi)))
            (f64x2.extract_lane 1 (local.get $hi))))
        (local.set $rows (i32.add (local.get $rows) (local.get $bytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
