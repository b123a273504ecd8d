#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| sealkit_fuzz::capture_members(data));
