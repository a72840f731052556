-- wrk script: every request is POST /v1/pets with a 10-character name, as bench/lib/send_requests.mjs
-- seeds them. The key comes from the environment (PETSTORE_BENCH_KEY), never from the command line.
wrk.method = "POST"
wrk.path = "/v1/pets"
wrk.body = '{"name":"pet-000001","categoryId":1,"status":"available"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("PETSTORE_BENCH_KEY")
