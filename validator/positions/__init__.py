"""positions"""
