-- wrk script of the machine yardstick (yardstick.ts): a small JSON body posted to an express echo.
wrk.method = "POST"
wrk.body = '{"service":1,"link":"https://x.example/p","quantity":10}'
wrk.headers["Content-Type"] = "application/json"
