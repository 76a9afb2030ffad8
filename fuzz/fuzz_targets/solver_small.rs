#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    inarow_fuzz::checks::check_solver_small(data);
});
