//! The HTTP API (actix-web).

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::{App, HttpResponse, HttpServer, get};

#[get("/healthz")]
async fn healthz() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ok\n")
}

/// The server on an already bound listener (tests bind port 0).
pub fn server(listener: TcpListener) -> std::io::Result<Server> {
    Ok(HttpServer::new(|| App::new().service(healthz)).listen(listener)?.run())
}
